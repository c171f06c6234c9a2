import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { ValidationError } from '../../shared/domain/domain-error';
import { urlProblem } from '../domain/destination';
import { newWebhookSecret } from '../domain/signature';
import { ALL_EVENTS } from '../domain/webhook-event-type';
import { DestinationGuard } from './destination-guard';
import { WebhookEndpoint, WebhookEndpoints } from './webhook-endpoints';

export interface RegisterWebhookCommand {
  url: string;
  events: string[];
  description: string | null;
}

/** X16: registers an endpoint; the answer is the only place its secret is shown. */
@Injectable()
export class RegisterWebhookUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpoints,
    private readonly guard: DestinationGuard,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(vendorId: number, command: RegisterWebhookCommand): Promise<WebhookEndpoint> {
    const problem = urlProblem(command.url);
    if (problem) throw ValidationError.of('url', problem);
    if (!this.config.webhooks.allowPrivateNetworks) {
      // resolved before the transaction: a DNS lookup may take seconds (X16 SSRF guard)
      const refused = await this.guard.problem(command.url);
      if (refused) throw ValidationError.of('url', refused);
    }
    // '*' alone or names; a repeated name is kept once, in the order given
    const events = command.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(command.events)];
    return this.uow.run(() =>
      this.endpoints.add({
        vendorId,
        url: command.url,
        events,
        description: command.description,
        secret: newWebhookSecret(),
        createdAt: this.clock.now(),
        disabledAt: null,
      }),
    );
  }
}
