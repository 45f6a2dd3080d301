/** The colour of each verdict, shared by the HTML report, its charts and the state diagrams. */
import type { Verdict } from '../harness/verdict.js';

export const OUTCOME_COLOURS: Record<Verdict, string> = {
  pass: '#2e7d32',
  fail: '#c62828',
  error: '#ef6c00',
  skip: '#9e9e9e',
  omit: '#cfd8dc',
};
