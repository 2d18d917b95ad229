import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Vitest starts the files that took longest last time first, so the run does not end on one core
 * with a long file started late. Without a previous run's durations (a fresh clone, CI) it would go
 * by file size; the files that start the real site (tests/http) are the long ones, and go first.
 */
export default class ServerFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const timed = (file: TestSpecification) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(root, file.moduleId)}`) !== undefined
    if (sorted.every(timed)) return sorted
    const startsTheSite = (file: TestSpecification) => relative(root, file.moduleId).startsWith('tests/http/')
    return [...sorted.filter(startsTheSite), ...sorted.filter((file) => !startsTheSite(file))]
  }
}
