import { startsAndWaits } from '../order.js';

startsAndWaits('c', 50);
