/** Provenance: where the values of a write call came from, and whether an outsider supplied them. */
export { fileText } from './file-text';
export { traceInput } from './input-leaves';
export { ProvenanceLedger, savedTrustOf, type TrustOf } from './provenance-ledger';
export {
  type CallProvenance,
  type ChatMark,
  type ContextSource,
  isTainted,
  provenanceAfterEdit,
  type ToolTrust,
  type UntrustedRead,
  type ValueSource,
} from './provenance-types';
