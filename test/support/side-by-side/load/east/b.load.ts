import { startsAndWaits } from '../order.js';

startsAndWaits('b', 50);
