import { MaterializeProgress } from './materialize-progress';

const settledWithin = async (promise: Promise<void>, turns = 5): Promise<boolean> => {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let i = 0; i < turns; i++) await Promise.resolve();
  return settled;
};

describe('MaterializeProgress', () => {
  it('holds a claim that found nothing until the next batch is committed', async () => {
    const progress = new MaterializeProgress();
    const waiting = progress.after(progress.mark);
    expect(await settledWithin(waiting)).toBe(false);
    progress.batchCommitted();
    expect(await settledWithin(waiting)).toBe(true);
  });

  it('lets a claim go on at once when a batch was committed while it ran (its mark is older)', async () => {
    const progress = new MaterializeProgress();
    const mark = progress.mark;
    progress.batchCommitted();
    expect(await settledWithin(progress.after(mark))).toBe(true);
  });

  it('releases every waiting claim when materialization ends, and says so in the mark', async () => {
    const progress = new MaterializeProgress();
    const mark = progress.mark;
    const waiting = [progress.after(mark), progress.after(mark)];
    progress.finish();
    expect(await settledWithin(Promise.all(waiting).then(() => undefined))).toBe(true);
    expect(progress.mark.finished).toBe(true);
  });
});
