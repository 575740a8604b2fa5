import { LadderPosition, stateAfterManualDecline } from './ladder-position';

const dunningEnd = new Date('2027-03-04T00:00:00.000Z');
const retrying: LadderPosition = { status: 'retrying', step: 'create_payment', nextAttemptAt: '2027-03-02T00:00:00+00:00', declinedBindingId: null };
const awaitingCard: LadderPosition = { status: 'failed', step: 'awaiting_card', nextAttemptAt: '2027-03-04T00:00:00+00:00', declinedBindingId: 'B1' };
const ladderOver: LadderPosition = { status: 'failed', step: 'done', nextAttemptAt: null, declinedBindingId: null };

describe('stateAfterManualDecline', () => {
  it('puts a soft-declined manual retry back where the ladder stood: same next attempt, same status', () => {
    expect(stateAfterManualDecline(retrying, 'soft', dunningEnd, 'B2')).toEqual({
      status: 'retrying',
      step: 'create_payment',
      nextAttemptAt: new Date('2027-03-02T00:00:00.000Z'),
      declinedBindingId: null,
    });
    expect(stateAfterManualDecline(awaitingCard, 'soft', dunningEnd, 'B2')).toEqual({
      status: 'failed',
      step: 'awaiting_card',
      nextAttemptAt: dunningEnd,
      declinedBindingId: 'B1',
    });
  });

  it('makes a hard-declined manual retry wait for a new card until the end of dunning', () => {
    expect(stateAfterManualDecline(retrying, 'hard', dunningEnd, 'B2')).toEqual({ status: 'failed', step: 'awaiting_card', nextAttemptAt: dunningEnd, declinedBindingId: 'B2' });
  });

  it('never ends dunning before the ladder would have, even on a hard decline', () => {
    const lateStep: LadderPosition = { ...retrying, nextAttemptAt: '2027-03-10T00:00:00.000Z' };
    expect(stateAfterManualDecline(lateStep, 'hard', dunningEnd, 'B2').nextAttemptAt).toEqual(new Date('2027-03-10T00:00:00.000Z'));
  });

  it('leaves a charge whose ladder was over as it was, whatever the decline', () => {
    for (const kind of ['soft', 'hard'] as const) {
      expect(stateAfterManualDecline(ladderOver, kind, dunningEnd, 'B2')).toEqual({ status: 'failed', step: 'done', nextAttemptAt: null, declinedBindingId: null });
    }
  });
});
