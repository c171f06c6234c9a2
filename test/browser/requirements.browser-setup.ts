import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../support/chromium';
import { MissingRequirement } from '../support/requirements';

/** Jest globalSetup of `npm run test:browser`: a Chromium to drive; none is ever downloaded. */
export default async function requireChromium(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new MissingRequirement(
      `npm run test:browser needs Chromium at ${CHROMIUM_PATH}, and there is none`,
      "Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.",
    );
  }
}
