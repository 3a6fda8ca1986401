'use client';

import { Cpu } from 'lucide-react';
import { Badge } from './ui/badge';
import { useWorkspace } from './workspace-provider';

/** Names the model answering in this deployment (the offline model unless a key is configured). */
export function ModelLabel() {
  const { t, meta } = useWorkspace();
  if (meta === null) return null;
  return (
    <Badge variant="secondary" title={t.model} data-testid="model-label">
      <Cpu aria-hidden="true" />
      <span className="sr-only">{t.model}: </span>
      {meta.model}
    </Badge>
  );
}
