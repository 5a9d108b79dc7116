// Before every web test file (vitest.config.ts): React's behaviours that preact/compat lacks, as main.tsx
// loads them first, and Testing Library's waits long enough for a busy 2-CPU CI machine.
import '../lib/preact-parity';
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
