import { startsAndWaits } from '../order.js';

startsAndWaits('a', 400);
