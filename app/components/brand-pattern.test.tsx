import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BrandPattern, type BrandPatternShape } from './brand-pattern'

const draw = (seed: string, shape?: BrandPatternShape) => renderToStaticMarkup(<BrandPattern seed={seed} shape={shape} className="h-16 w-16" />)

describe('the brand pattern', () => {
  it('is decoration only: hidden from assistive technology, with no text, no title and no inline style', () => {
    for (const shape of ['circle', 'tile', 'band'] as const) {
      const svg = draw('Meera Iyer', shape)
      expect(svg).toMatch(/^<svg aria-hidden="true" focusable="false"/)
      expect(svg).not.toMatch(/role=|aria-label|<title|<text|<desc|style=/)
      // A handful of shapes, whatever the seed: cheap on a page of cards.
      expect(svg.match(/<(path|circle|rect)\b/g)!.length, shape).toBeLessThanOrEqual(10)
    }
  })

  it('draws the same seed the same way every time, and different seeds differently', () => {
    expect(draw('Meera Iyer')).toBe(draw('Meera Iyer'))
    const names = ['Meera Iyer', 'Arjun Rao', 'Kavya Nair', 'Priya Rao']
    expect(new Set(names.map((name) => draw(name))).size).toBe(names.length)
  })

  it('is coloured by the brand’s theme classes only', () => {
    const classes = [...draw('team', 'band').matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(' '))
    for (const name of classes.filter((name) => /^(fill|stroke)-/.test(name))) expect(name).toMatch(/^(fill|stroke)-(brand-\d+|accent-500|white)(\/\d+)?$/)
  })
})
