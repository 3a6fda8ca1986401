import type { Context, ContextManager } from '@opentelemetry/api';
import { telemetryScope } from '@toolgate/engine/telemetry';

/**
 * OpenTelemetry's active context, kept in the tool calls' telemetry store instead of an
 * AsyncLocalStorage of its own: every enabled AsyncLocalStorage is copied onto every
 * promise the process makes (each Next.js request makes thousands), so one store for both
 * costs a turn less than two. Functions bound with `bind` run in the bound context;
 * other targets (event emitters) are returned unchanged.
 */
export class ScopeContextManager implements ContextManager {
  /** `root`: the API's `ROOT_CONTEXT`, active outside every `with`. */
  constructor(private readonly root: Context) {}

  active(): Context {
    return telemetryScope().getStore()?.traceContext ?? this.root;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const callback = thisArg == null ? fn : (fn.bind(thisArg) as F);
    const store = telemetryScope().getStore();
    // Already active (the root, outside every scope, included): no new scope to enter.
    if ((store?.traceContext ?? this.root) === context) return callback(...args);
    return telemetryScope().run({ ...store, traceContext: context }, callback, ...args);
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this;
    return function bound(this: unknown, ...args: unknown[]) {
      return manager.with(context, () => target.apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    return this;
  }
}
