// How many jobs this node holds now (renders, segments, joins, snapshots, checks, previews), for its health answer:
// a container platform asks it before stopping an instance that looks idle (worker/renders/farm/
// render-node-container.ts), since a node pulls its work and no request into it shows it busy.
export class JobsInHand {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Counts the job while `running` is unsettled. */
  hold<T>(running: Promise<T>): Promise<T> {
    this.#count++;
    return running.finally(() => {
      this.#count--;
    });
  }
}
