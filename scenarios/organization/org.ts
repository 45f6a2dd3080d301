/** The organization service's scenario kit: its check registrar per area and its steps. */
import { organizationIdentity } from '../../generators/organization.js';
import { scenario } from '../../harness/register.js';
import { steps } from '../shared/steps.js';

export const org = steps(organizationIdentity);
export const area = (name: string) => scenario('organization', name);
