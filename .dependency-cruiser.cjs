/** Import rules that hold the architecture (docs/architecture.md): run by `npm run lint`. */
module.exports = {
  forbidden: [
    {
      name: 'no-cross-feature-imports',
      comment:
        'A feature is a screen area; what two features share lives outside features/ (components, lib, upload, ...).',
      severity: 'error',
      from: { path: '^frontend/src/features/([^/]+)/' },
      to: { path: '^frontend/src/features/', pathNot: '^frontend/src/features/$1/' },
    },
    {
      name: 'pure-domain',
      comment:
        'functions/domain holds rules without I/O: it may not reach the transport, the use cases, the adapters, the data layer or the AWS clients.',
      severity: 'error',
      from: { path: '^functions/domain/' },
      to: { path: '^functions/(http|services|adapters|data|jobs|lib/clients)/' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make a module run before what it imports has finished loading.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|cdk\\.out|\\.data)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
