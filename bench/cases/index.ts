import type { BenchCase } from '../support/types';
import { approvalDecisions } from './approval-decisions';
import { approvalResume } from './approval-resume';
import { chatThroughput } from './chat-throughput';
import { databaseEngines } from './database-engines';
import { effectRecords } from './effect-records';
import { inboxVolume } from './inbox-volume';
import { keyDerivation } from './key-derivation';
import { memory } from './memory';
import { nlu } from './nlu';
import { parkedApprovals } from './parked-approvals';
import { provenance } from './provenance';
import { redisStores } from './redis-stores';
import { singleFlight } from './single-flight';
import { tracing } from './tracing';

/** Every benchmark by name; the order and build needs live in `bench/support/case-list.ts`. */
export const benchCases: Record<string, BenchCase> = {
  'key-derivation': keyDerivation,
  nlu: nlu,
  'single-flight': singleFlight,
  memory: memory,
  redis: redisStores,
  'chat-throughput': chatThroughput,
  'approval-resume': approvalResume,
  'parked-approvals': parkedApprovals,
  'approval-decisions': approvalDecisions,
  'database-engines': databaseEngines,
  'effect-records': effectRecords,
  tracing: tracing,
  provenance: provenance,
  'inbox-volume': inboxVolume,
};
