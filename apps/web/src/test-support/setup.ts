// Before every web test file (vitest.config.ts): Testing Library's waits long enough for a busy 2-CPU CI
// machine.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
