import { beforeEach, describe, expect, it } from 'vitest'
import { startedAnalysis } from '../../../tests/support/analyses'
import { createStaff } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addEvent, analysisForStaff, saveMetrics } from './editing.server'
import { importMetrics, MAX_CSV_BYTES, MAX_CSV_ROWS, previewImport, problemText, readCsvFile } from './metrics-import.server'

useTestDatabase()

let actor: { id: number; email: string }
beforeEach(async () => {
  actor = await createStaff()
})

const started = () => startedAnalysis(actor)

const problems = async (analysisId: number, csv: string) => (await previewImport(analysisId, csv)).problems.map(problemText)

const GOOD = ['stroke,distance_m,metric,value,unit,better', 'freestyle,50,final_time,28.41,,', 'Freestyle,50,Stroke rate,52.3,,', 'freestyle,50 m,Dolphin kick frequency,"2,1",Hz,higher', 'backstroke,100,split_50,1:05.32,,', 'backstroke,100,reaction_time,,,', ''].join('\r\n')

describe('importing metrics from CSV', () => {
  it('previews what a good file adds and overwrites, old → new, and saves nothing until confirmed', async () => {
    const { bookingId, analysisId } = await started()
    const eventId = await addEvent(actor, analysisId, { stroke: 'freestyle', distance: 50 })
    await saveMetrics(actor, analysisId, eventId, new Map([['final_time', 28.9]]))

    const preview = await previewImport(analysisId, `\uFEFF${GOOD}`)
    expect(preview.problems).toEqual([])
    expect(preview.newEvents).toEqual(['100 m backstroke'])
    expect(preview.empty).toBe(1)
    expect(preview.changes.map(({ row, event, key, label, unit, betterWhen, value, previous }) => ({ row, event, key, label, unit, betterWhen, value, previous }))).toEqual([
      { row: 2, event: '50 m freestyle', key: 'final_time', label: 'Final time', unit: 's', betterWhen: 'lower', value: 28.41, previous: 28.9 },
      { row: 3, event: '50 m freestyle', key: 'stroke_rate', label: 'Stroke rate', unit: 'strokes/min', betterWhen: 'higher', value: 52.3, previous: null },
      { row: 4, event: '50 m freestyle', key: 'custom_dolphin_kick_frequency', label: 'Dolphin kick frequency', unit: 'Hz', betterWhen: 'higher', value: 2.1, previous: null },
      { row: 5, event: '100 m backstroke', key: 'split_50', label: 'Split at 50 m', unit: 's', betterWhen: 'lower', value: expect.closeTo(65.32, 5), previous: null },
    ])
    // Nothing saved by the preview.
    const before = (await analysisForStaff(bookingId))!.analysis!
    expect(before.events).toHaveLength(1)
    expect(before.events[0]!.metrics.map((metric) => [metric.key, metric.value])).toEqual([['final_time', 28.9]])

    const applied = await importMetrics(actor, analysisId, GOOD)
    expect(applied.changes).toHaveLength(4)
    const after = (await analysisForStaff(bookingId))!.analysis!
    expect(after.events.map((event) => [event.label, event.metrics.map((metric) => [metric.key, metric.value])])).toEqual([
      [
        '50 m freestyle',
        [
          ['final_time', 28.41],
          ['stroke_rate', 52.3],
          ['custom_dolphin_kick_frequency', 2.1],
        ],
      ],
      ['100 m backstroke', [['split_50', expect.closeTo(65.32, 5)]]],
    ])
    // The same file again changes nothing; a custom metric already stored needs no unit any more.
    const again = await previewImport(analysisId, `${GOOD}freestyle,50,Dolphin kick frequency,2.4,,\r\n`)
    expect(again.changes).toEqual([])
    expect(again.problems.map(problemText)).toEqual(['Row 7, column metric: Dolphin kick frequency of the 50 m freestyle is on row 4 already.'])
    expect((await previewImport(analysisId, 'stroke,distance_m,metric,value\nfreestyle,50,Dolphin kick frequency,2.4\n')).changes.map((change) => [change.label, change.unit, change.previous, change.value])).toEqual([['Dolphin kick frequency', 'Hz', 2.1, 2.4]])
  })

  it('names every bad row and column, and a file with one saves nothing', async () => {
    const { bookingId, analysisId } = await started()
    const csv = [
      'stroke,distance_m,metric,value,unit,better',
      'freestyle,50,final_time,fast,,',
      'fly,50,final_time,30,,',
      'freestyle,60,final_time,30,,',
      'freestyle,50,,30,,',
      'freestyle,50,Glide ratio,0.8,,',
      'freestyle,50,Glide ratio,0.8,ratio,',
      'freestyle,50,Glide ratio,0.8,ratio,sideways',
      'freestyle,50,final_time,30,ms,',
      'freestyle,50,stroke_rate,50,,,extra',
      'backstroke,50,final_time,31.2,,',
      'backstroke,50,Final time,31.3,,',
    ].join('\n')
    expect(await problems(analysisId, csv)).toEqual([
      'Row 2, column value: “fast” is not a number.',
      'Row 3, column stroke: “fly” is not a stroke (freestyle, backstroke, breaststroke, butterfly, individual_medley).',
      'Row 4, column distance_m: “60” is not a distance in metres of the list (25, 50, 100, 200, 400, 800, 1500).',
      'Row 5, column metric: The metric is missing.',
      'Row 6, column unit: “Glide ratio” is not a metric of the list: a metric of your own needs its unit and whether higher or lower is better.',
      'Row 7, column better: “Glide ratio” is not a metric of the list: a metric of your own needs its unit and whether higher or lower is better.',
      'Row 8, column better: “sideways” is neither higher nor lower.',
      'Row 9, column unit: Final time is measured in s, not “ms”.',
      'Row 10: It has 7 cells; the header names 6 columns.',
      'Row 12, column metric: Final time of the 50 m backstroke is on row 11 already.',
    ])
    await expect(importMetrics(actor, analysisId, csv)).rejects.toThrow('The file has rows to fix; nothing was imported.')
    expect((await analysisForStaff(bookingId))!.analysis!.events).toEqual([])
  })

  it('checks the header, the quoting, and the size', async () => {
    const { analysisId } = await started()
    expect(await problems(analysisId, '')).toEqual(['The file is empty: its first row names the columns (stroke,distance_m,metric,value,unit,better).'])
    expect(await problems(analysisId, 'stroke,distance,metric,value\n')).toEqual(['Row 1: “distance” is not a column the import knows (stroke, distance_m, metric, value, unit, better).', 'Row 1: The column distance_m is missing.'])
    expect(await problems(analysisId, 'stroke,distance_m,metric,value,value\n')).toEqual(['Row 1, column value: The column is there twice.'])
    expect(await problems(analysisId, 'stroke,distance_m,metric,value\nfreestyle,50,"final_time,30\n')).toEqual(['A quoted cell is never closed: the file is not a CSV file the import can read.'])
    const many = ['stroke,distance_m,metric,value', ...Array.from({ length: MAX_CSV_ROWS + 1 }, (_, index) => `freestyle,50,custom_${index},1`)].join('\n')
    expect(await problems(analysisId, many)).toEqual([`The file has more than ${MAX_CSV_ROWS} rows; import it in parts.`])
    expect(await problems(analysisId, `stroke,distance_m,metric,value\n${'x'.repeat(1024 * 1024)}`)).toEqual(['The file is larger than 1 MB.'])
    // Quoted cells hold commas and quotes; columns may come in any order; blank lines are skipped.
    const preview = await previewImport(analysisId, 'value,metric,distance_m,stroke,unit,better\n\n1.5,"Kick ""power"", left",50,freestyle,W,higher\n')
    expect(preview.problems).toEqual([])
    expect(preview.changes.map((change) => [change.row, change.key, change.label])).toEqual([[3, 'custom_kick_power_left', 'Kick "power", left']])
  })

  it('an import is checked again when confirmed: a value changed since the preview is overwritten only as the new plan says', async () => {
    const { bookingId, analysisId } = await started()
    const csv = 'stroke,distance_m,metric,value\nfreestyle,50,final_time,28.41\n'
    expect((await previewImport(analysisId, csv)).changes.map((change) => change.previous)).toEqual([null])
    const eventId = await addEvent(actor, analysisId, { stroke: 'freestyle', distance: 50 })
    await saveMetrics(actor, analysisId, eventId, new Map([['final_time', 29]]))
    const applied = await importMetrics(actor, analysisId, csv)
    expect(applied.changes.map((change) => [change.previous, change.value])).toEqual([[29, 28.41]])
    expect((await analysisForStaff(bookingId))!.analysis!.events.map((event) => event.label)).toEqual(['50 m freestyle'])
  })
})

describe('reading an uploaded CSV file', () => {
  it('reads the text of a UTF-8 file, and says what is wrong with any other', async () => {
    expect(await readCsvFile(new File(['stroke,distance_m\r\n'], 'times.csv'))).toEqual({ csv: 'stroke,distance_m\r\n', fileName: 'times.csv' })
    expect(await readCsvFile(null)).toEqual({ problem: 'Choose the CSV file to import.' })
    expect(await readCsvFile(new File([], 'empty.csv'))).toEqual({ problem: 'Choose the CSV file to import.' })
    expect(await readCsvFile(new File([new Uint8Array(MAX_CSV_BYTES + 1)], 'big.csv'))).toEqual({ problem: 'The file is larger than 1 MB.' })
    const notText = { problem: 'The file is not a text (UTF-8) CSV file. Export it again as CSV.' }
    expect(await readCsvFile(new File([new Uint8Array([0xff, 0xfe, 0x41])], 'sheet.xls'))).toEqual(notText)
    expect(await readCsvFile(new File(['a,b\u0000'], 'nul.csv'))).toEqual(notText)
  })
})
