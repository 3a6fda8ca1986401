/**
 * When a turn that waits for a person may leave memory.
 *
 * A turn whose call waits for approval holds its whole model loop (the model
 * stream, the UI stream pipeline, the resumable buffer) for as long as the person
 * takes. That is worth it while somebody watches the stream: the decision wakes
 * the same stream and the reply follows at once. Once nobody reads it, the turn
 * is parked instead: everything it needs is on disk already (the approval rows,
 * the message saved up to its cards), so it ends, and a decision continues it
 * from the database (`continueParkedTurn`), as after a restart.
 *
 * A turn parks when all of these hold for `afterMs`:
 * - no reader follows its stream in this process (the request that started it
 *   and every resume have gone), or every waiting call waits for someone else
 *   (a role step: hours, not seconds);
 * - at least one call waits, and every waiting call's card is saved;
 * - no call of the turn has been woken yet: once one has, the turn is carrying a
 *   decision out and finishes on its own.
 */
export type TurnParking = {
  /** Aborts when the turn parks; the waiting calls stop waiting on it. */
  readonly signal: AbortSignal;
  /** Whether the turn has parked: a call woken after this must leave its decision to the continuation. */
  readonly parked: boolean;
  /** A reader started following the stream; call the result when it stops. */
  follow(): () => void;
  /**
   * A call started waiting for a person; call the result when it stops waiting (not by
   * parking). `long`: it waits for someone other than the reader (a role step).
   */
  wait(options?: { long?: boolean }): () => void;
  /** So many of the turn's cards are saved (a running count). */
  cardsSaved(count: number): void;
};

/** Options of {@link createTurnParking}. */
export type TurnParkingOptions = {
  /** How long the conditions must hold; a reload that resumes within it keeps the live stream. */
  afterMs: number;
  /** Parks the turn: called once, after `parked` has become true and `signal` has aborted. */
  onPark: () => void;
};

export function createTurnParking({ afterMs, onPark }: TurnParkingOptions): TurnParking {
  const controller = new AbortController();
  let readers = 0;
  let waiting = 0;
  let longWaiting = 0;
  let shown = 0;
  let woken = false;
  let parked = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const eligible = () =>
    !parked && !woken && (readers === 0 || longWaiting === waiting) && waiting > 0 && shown >= waiting;

  function review() {
    if (!eligible()) {
      clearTimeout(timer);
      timer = undefined;
      return;
    }
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      // Checked again in the same tick as the switch, so no wake-up can slip in between.
      if (!eligible()) return;
      parked = true;
      controller.abort();
      onPark();
    }, afterMs);
    timer.unref?.();
  }

  return {
    signal: controller.signal,
    get parked() {
      return parked;
    },
    follow() {
      readers += 1;
      review();
      let left = false;
      return () => {
        if (left) return;
        left = true;
        readers -= 1;
        review();
      };
    },
    wait({ long = false } = {}) {
      waiting += 1;
      if (long) longWaiting += 1;
      review();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        waiting -= 1;
        if (long) longWaiting -= 1;
        // Woken by a decision, the deadline or Stop: the turn goes on from here.
        woken = true;
        review();
      };
    },
    cardsSaved(count) {
      shown = Math.max(shown, count);
      review();
    },
  };
}
