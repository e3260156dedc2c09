/**
 * vitest's order, except that within one group the files of different projects are mixed
 * longest first (by the last run's duration; unknown ones first, as vitest does). vitest's own
 * order puts every file of one project before the next project's, so the long integration files
 * (fuzzing, the 5,000-file transfer) would start only once every e2e file had: a long tail on a
 * shared pool of a few workers.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const last = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`);
    const weight = (spec: TestSpecification) => {
      const result = last(spec);
      // failed last time, or never run: first, as vitest orders them
      return !result || result.failed ? Number.POSITIVE_INFINITY : (result.duration ?? 0);
    };
    return sorted
      .map((spec, index) => ({ spec, index, group: spec.project.config.sequence.groupOrder, weight: weight(spec) }))
      .sort((a, b) => a.group - b.group || (b.weight === a.weight ? a.index - b.index : b.weight > a.weight ? 1 : -1))
      .map(({ spec }) => spec);
  }
}
