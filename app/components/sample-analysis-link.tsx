import { href } from 'react-router'
import { ArrowLink } from './arrow-link'

/**
 * "See a sample analysis", leading to the results page the lab publishes as a sample. Shown only
 * while one is published (`shown`), so no page ever links to a missing sample.
 */
export function SampleAnalysisLink({ shown, className = '' }: { shown: boolean; className?: string }) {
  if (!shown) return null
  return (
    <p className={className}>
      <ArrowLink to={href('/sample-analysis')}>See a sample analysis</ArrowLink>
    </p>
  )
}
