import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, importSpecifiersOf, sourceFilesUnder } from '../support/import-graph';

const root = resolve(import.meta.dirname, '../..');

/**
 * The floors of `lib/`, top to bottom: a folder imports only folders on lower floors (or its
 * own). Turns sit on top, then approvals; the tool layer below them; stores and the database
 * near the bottom; configuration and pure helpers at the bottom. A new folder must be placed
 * here before anything imports it.
 */
const floors: readonly (readonly string[])[] = [
  ['chat'],
  ['chats', 'undo'],
  // An account that takes over a guest ends the guest's role-step approvals inside the sign-in hook.
  ['auth'],
  ['approvals'],
  ['turn-table'],
  // The start-up check reads the MCP and policy files and checks the names they give each other and the tools.
  ['startup'],
  ['ai', 'mcp'],
  ['server'],
  ['policy'],
  ['tools', 'telemetry', 'webhooks', 'http', 'audit'],
  ['db'],
  ['config', 'markdown'],
  ['shared'],
];

/** Arrows kept against the floors, each with its reason (none today). */
const kept: string[] = [];

/** The `lib/` folder (or top-level file, without its extension) a repo path belongs to. */
function roomOf(path: string): string | undefined {
  const match = /^lib\/([^/]+?)(?:\.tsx?)?(?:\/|$)/.exec(path);
  return match?.[1];
}

/**
 * The rooms of `lib/approvals/`, top to bottom: its door (`index.ts`); the product surfaces
 * that read the life cycle (the inbox lists, the event stream, questions to the requester, a
 * chat's approvals, the waiting requests the model is told of, the wire types); the notices
 * sent as a row moves (approver mail and its reminders, the webhook, the requester told, the
 * operators told, in the words approvers read); the life cycle itself (request, park, resolve,
 * re-judge, settle, deadlines, escalation, grants, parking, the registry, the rows it writes).
 * The life cycle says when to tell through its port (`life-cycle/approval-notices.ts`), which
 * the door fills with the notices.
 */
const approvalFloors: readonly (readonly string[])[] = [['index'], ['surfaces'], ['notices'], ['life-cycle']];

/** The room of `lib/approvals/` a repo path belongs to: a subfolder, or a file without its extension. */
function approvalRoomOf(path: string): string | undefined {
  const match = /^lib\/approvals\/([^/]+?)(?:\.tsx?)?(?:\/|$)/.exec(path);
  return match?.[1];
}

/** Imports between rooms (`lib/` folders by default) that run up a floor or across one: `from -> to`, file by file. */
function arrowsAgainstTheFloors(
  graph: ReadonlyMap<string, readonly string[]>,
  order: readonly (readonly string[])[],
  room: (path: string) => string | undefined = roomOf,
): string[] {
  const floorOf = new Map(order.flatMap((rooms, index) => rooms.map((room) => [room, index] as const)));
  const wrong: string[] = [];
  for (const [from, targets] of graph) {
    const fromRoom = room(from);
    if (fromRoom === undefined) continue;
    for (const to of targets) {
      const toRoom = room(to);
      if (toRoom === undefined || toRoom === fromRoom) continue;
      const fromFloor = floorOf.get(fromRoom);
      const toFloor = floorOf.get(toRoom);
      if (fromFloor === undefined || toFloor === undefined || toFloor <= fromFloor)
        wrong.push(`${from} -> ${to}`);
    }
  }
  return wrong.sort();
}

describe('the folders of lib/', () => {
  const graph = importGraph(['app', 'components', 'lib']);

  it('import only folders on a lower floor', () => {
    expect(arrowsAgainstTheFloors(graph, floors).filter((arrow) => !kept.includes(arrow))).toEqual([]);
  });

  it('keeps no arrow against the floors that is no longer there', () => {
    const arrows = arrowsAgainstTheFloors(graph, floors);
    expect(kept.filter((arrow) => !arrows.includes(arrow))).toEqual([]);
  });

  it('are all placed on a floor', () => {
    const rooms = new Set([...graph.keys()].map(roomOf).filter((room) => room !== undefined));
    expect([...rooms].filter((room) => !floors.some((floor) => floor.includes(room)))).toEqual([]);
  });

  it('are never imported from app/ or components/ the other way round', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      from.startsWith('lib/')
        ? targets
            .filter((to) => to.startsWith('app/') || to.startsWith('components/'))
            .map((to) => `${from} -> ${to}`)
        : [],
    );
    expect(upward).toEqual([]);
  });
});

describe('the rooms of lib/approvals/', () => {
  const graph = importGraph(['app', 'components', 'lib']);

  it('import only rooms on a lower floor: the surfaces and the notices read the life cycle, never the other way round', () => {
    expect(arrowsAgainstTheFloors(graph, approvalFloors, approvalRoomOf)).toEqual([]);
  });

  it('are all placed on a floor', () => {
    const rooms = new Set([...graph.keys()].map(approvalRoomOf).filter((room) => room !== undefined));
    expect([...rooms].filter((room) => !approvalFloors.some((floor) => floor.includes(room)))).toEqual([]);
  });
});

/** The files outside `lib/approvals/` that may run code: the app, the bench, and the start-up hooks at the root. */
function graphOutsideApprovals(): Map<string, string[]> {
  const graph = importGraph(['app', 'components', 'lib', 'bench']);
  for (const file of ['instrumentation.ts', 'instrumentation-node.ts', 'proxy.ts']) {
    const targets = importSpecifiersOf(join(root, file)).flatMap((specifier) => {
      const match = /^(?:@\/|\.\/)(lib\/.+)$/.exec(specifier);
      if (match === null) return [];
      return [`${match[1]}.ts`, `${match[1]}/index.ts`].filter((path) => graph.has(path));
    });
    graph.set(file, targets);
  }
  return graph;
}

/**
 * Imports from outside `lib/approvals/` past its door into a file that reaches the life
 * cycle's notices port (`life-cycle/approval-notices.ts`): `from -> to`. Such a caller could
 * move a row with no notices installed.
 */
function pastTheDoor(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const port = 'lib/approvals/life-cycle/approval-notices.ts';
  const reachesPort = (start: string) => {
    const seen = new Set<string>();
    const next = [start];
    while (next.length > 0) {
      const file = next.pop() as string;
      if (file === port) return true;
      if (seen.has(file)) continue;
      seen.add(file);
      next.push(...(graph.get(file) ?? []));
    }
    return false;
  };
  const inside = (file: string) => file.startsWith('lib/approvals/');
  return [...graph]
    .flatMap(([from, targets]) =>
      inside(from)
        ? []
        : targets
            .filter((to) => inside(to) && to !== 'lib/approvals/index.ts' && reachesPort(to))
            .map((to) => `${from} -> ${to}`),
    )
    .sort();
}

describe('lib/approvals/', () => {
  it('is run from outside only through its door, which installs the notices the life cycle sends', () => {
    expect(pastTheDoor(graphOutsideApprovals())).toEqual([]);
  });
});

/** The package a repo path belongs to (`packages/engine`), or undefined for the app's files. */
function packageOf(path: string): string | undefined {
  return /^packages\/[^/]+/.exec(path)?.[0];
}

describe('app/, components/ and lib/', () => {
  it('import nothing from bench/ or tests/: the product never loops back through its scaffolding', () => {
    const graph = importGraph(['app', 'components', 'lib']);
    const scaffolding = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => /^(?:bench|tests)\//.test(to)).map((to) => `${from} -> ${to}`),
    );
    expect(scaffolding).toEqual([]);
  });
});

describe('packages/', () => {
  it('name nothing of the app: no `@/` import, no relative path out of their own package', () => {
    const graph = importGraph(['packages']);
    const outward = sourceFilesUnder(['packages']).flatMap((from) => [
      ...importSpecifiersOf(join(root, from))
        .filter((specifier) => specifier.startsWith('@/'))
        .map((specifier) => `${from} -> ${specifier}`),
      ...(graph.get(from) ?? [])
        .filter((to) => packageOf(to) !== packageOf(from))
        .map((to) => `${from} -> ${to}`),
    ]);
    expect([...new Set(outward)].sort()).toEqual([]);
  });

  it('are reached from app/, components/ and lib/ by their package name only, never by a path into their files', () => {
    const graph = importGraph(['app', 'components', 'lib']);
    const intoFiles = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => packageOf(to) !== undefined).map((to) => `${from} -> ${to}`),
    );
    expect(intoFiles).toEqual([]);
  });
});

describe('components/', () => {
  it('import only client-safe files: nothing that reaches a server-only module', () => {
    const graph = importGraph(['app', 'components', 'lib']);
    const serverOnly = (file: string) =>
      /^import 'server-only';/m.test(readFileSync(join(root, file), 'utf8'));
    const reached = new Map<string, string>();
    // A server action's file ('use server') reaches the browser as a reference to call, not as code.
    const isActionFile = (file: string) => /^'use server';/m.test(readFileSync(join(root, file), 'utf8'));
    const visit = (file: string, from: string) => {
      if (reached.has(file)) return;
      reached.set(file, from);
      if (isActionFile(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, file);
    };
    for (const file of graph.keys())
      if (file.startsWith('components/') && !/'use server'/.test(readFileSync(join(root, file), 'utf8')))
        visit(file, file);
    const leaks = [...reached]
      .filter(([file]) => serverOnly(file))
      .map(([file, from]) => `${from} -> ${file}`);
    expect(leaks).toEqual([]);
  });
});

describe('arrowsAgainstTheFloors', () => {
  it('names an import that runs up a floor and one between folders of the same floor', () => {
    const graph = new Map([
      ['lib/db/a.ts', ['lib/chat/b.ts', 'lib/db/c.ts']],
      ['lib/tools/d.ts', ['lib/policy/e.ts', 'lib/db/a.ts']],
      ['lib/chat/b.ts', ['lib/db/a.ts']],
    ]);
    expect(arrowsAgainstTheFloors(graph, [['chat'], ['tools', 'policy'], ['db']])).toEqual([
      'lib/db/a.ts -> lib/chat/b.ts',
      'lib/tools/d.ts -> lib/policy/e.ts',
    ]);
  });
});

describe('pastTheDoor', () => {
  it('names an import from outside that reaches the notices port past the door, not one through the door or to a file that cannot reach it', () => {
    const port = 'lib/approvals/life-cycle/approval-notices.ts';
    const graph = new Map([
      ['lib/chat/a.ts', ['lib/approvals/index.ts', 'lib/approvals/life-cycle/approval-states.ts']],
      ['bench/b.ts', ['lib/approvals/surfaces/read.ts']],
      ['lib/approvals/index.ts', ['lib/approvals/surfaces/read.ts']],
      ['lib/approvals/surfaces/read.ts', ['lib/approvals/life-cycle/settle.ts']],
      ['lib/approvals/life-cycle/settle.ts', [port]],
      ['lib/approvals/life-cycle/approval-states.ts', []],
      [port, []],
    ]);
    expect(pastTheDoor(graph)).toEqual(['bench/b.ts -> lib/approvals/surfaces/read.ts']);
  });
});
