import { Injectable } from '@nestjs/common';
import { ChargeFiguresRepository, DunningFigure, OutcomeFigure } from './charge-figures.repository';

/** Charge figures for the operator's dashboard. */
@Injectable()
export class ChargeFiguresService {
  constructor(private readonly figures: ChargeFiguresRepository) {}

  outcomesBetween(from: Date, to: Date): Promise<OutcomeFigure[]> {
    return this.figures.outcomesBetween(from, to);
  }

  dunning(): Promise<DunningFigure[]> {
    return this.figures.dunning();
  }
}
