/** Provenance: where the values of a write call came from, and whether an outsider supplied them. */
export { inputLeaves } from './input-leaves';
export { normalizeText } from './normalize-text';
export { ProvenanceLedger, savedTrustOf, type TrustOf } from './provenance-ledger';
export {
  type CallProvenance,
  type ContextSource,
  isTainted,
  provenanceAfterEdit,
  type ToolTrust,
  type ValueSource,
} from './provenance-types';
