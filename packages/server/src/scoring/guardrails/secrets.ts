import { SECRET_PATTERNS } from '../patterns.js';
import { patternValidator } from './pattern-validator.js';

/** `secrets`: sk- API keys, AWS access key ids, GitHub tokens, private key blocks, password values. */
export const secretsValidator = patternValidator('secrets', SECRET_PATTERNS, ['secret', 'secrets']);
