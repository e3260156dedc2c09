import { App, Validations } from 'aws-cdk-lib';
import { createSendBridge } from '../lib/sendbridge-app';
import { SendBridgeChecks } from '../lib/nag/checks';

/**
 * SendBridge CDK app: `npx cdk synth -c regions=hongkong,frankfurt` (context keys: docs/deploy.md).
 * cdk-nag runs as a policy-validation plugin: an unacknowledged AwsSolutions error fails synth.
 * CDK's own CloudFormation validation runs on `cdk synth` and `cdk deploy` unless
 * `--no-validation` is given, as `npm run synth` does: the infra tests run it once per test run
 * (test/infra/cfn-validate.test.ts), so a synth for a diff does not pay for it again.
 */
const app = new App();
createSendBridge(app);
Validations.of(app).addPlugins(new SendBridgeChecks(app, { verbose: true }));
