/**
 * How an MCP tool is named in Toolgate: `<server>__<tool>`. Server names cannot hold
 * `__`, so the first `__` always splits a name back into its server and tool. Pure, so
 * the page can name the server of a tool part too.
 */

/** The separator between the server and the tool. */
export const mcpToolNameSeparator = '__';

/** The table name of tool `tool` of server `server`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${mcpToolNameSeparator}${tool}`;
}

/** The server and tool an MCP table name stands for; undefined for any other name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  const index = name.indexOf(mcpToolNameSeparator);
  if (index <= 0 || index + mcpToolNameSeparator.length >= name.length) return undefined;
  return { server: name.slice(0, index), tool: name.slice(index + mcpToolNameSeparator.length) };
}
