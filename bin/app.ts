import { App, Validations } from 'aws-cdk-lib';
import { createSendBridge } from '../lib/sendbridge-app';
import { SendBridgeChecks } from '../lib/nag/checks';

/**
 * SendBridge CDK app: `npx cdk synth -c regions=hongkong,frankfurt` (context keys: docs/deploy.md).
 * cdk-nag runs as a policy-validation plugin: an unacknowledged AwsSolutions error fails synth.
 */
const app = new App();
createSendBridge(app);
Validations.of(app).addPlugins(new SendBridgeChecks(app, { verbose: true }));
