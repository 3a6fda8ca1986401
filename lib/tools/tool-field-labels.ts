import { toolCatalog } from './tool-catalog';
import type { Localized } from './tool-facts';

/**
 * Each built-in tool's field labels in every UI language (declared in its facts), for the
 * approval card's edit form. MCP tools have none; their form falls back to the server's
 * own descriptions.
 */
export const fieldLabelsByTool: Readonly<Record<string, Readonly<Record<string, Localized>>>> =
  Object.fromEntries(toolCatalog.map((facts) => [facts.name, facts.fieldLabels]));
