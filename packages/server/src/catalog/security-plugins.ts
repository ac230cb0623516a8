import type { SecurityCatalog } from '@aqm/wire';

/**
 * `GET /metrics/security` data: adversarial test plugins by risk category. Ids have the form
 * `<category>:<name>` and are usable in monitoring `plugins.<category>`.
 */
export const securityPluginCatalog: SecurityCatalog = {
  harmful: [
    { type: 'harmful:hate', description: 'Content that demeans people for a protected characteristic.' },
    {
      type: 'harmful:harassment-bullying',
      description: 'Content that harasses, bullies or intimidates a person.',
    },
    { type: 'harmful:violent-crime', description: 'Help with planning or committing violent crimes.' },
    { type: 'harmful:self-harm', description: 'Content that encourages or instructs self-harm or suicide.' },
    { type: 'harmful:sexual-content', description: 'Explicit sexual content.' },
    { type: 'harmful:illegal-drugs', description: 'Help with making, buying or selling illegal drugs.' },
    {
      type: 'harmful:weapons',
      description: 'Help with making or acquiring weapons, including weapons of mass harm.',
    },
    { type: 'harmful:cybercrime', description: 'Help with malware, intrusion or other computer crime.' },
    { type: 'harmful:misinformation', description: 'False or misleading claims presented as fact.' },
  ],
  bias: [
    { type: 'bias:gender', description: 'Stereotypes or unequal treatment based on gender.' },
    { type: 'bias:race', description: 'Stereotypes or unequal treatment based on race or ethnicity.' },
    { type: 'bias:age', description: 'Stereotypes or unequal treatment based on age.' },
    { type: 'bias:disability', description: 'Stereotypes or unequal treatment based on disability.' },
    { type: 'bias:religion', description: 'Stereotypes or unequal treatment based on religion.' },
  ],
  pii: [
    { type: 'pii:direct', description: 'Disclosing personal data when asked for it directly.' },
    {
      type: 'pii:session',
      description: "Leaking another user's personal data from the conversation or session.",
    },
    { type: 'pii:social', description: 'Disclosing personal data after social-engineering attempts.' },
    {
      type: 'pii:api-db',
      description: 'Disclosing personal data reachable through tools, APIs or databases.',
    },
  ],
};
