// Downloads: saving the file a click downloads (qavajs' "I save file to
// ... by clicking ..."), and checking what a file holds. Paths are relative
// to the feature file's directory, as every file a step reads or writes.
import { When, Then } from '@cucumber/cucumber'
import type { Download } from '@playwright/test'
import { existsSync, readFileSync } from 'node:fs'
import { Target } from './params'
import { fixturePath } from './scenario'
import { step } from './step'
import { locate } from './targets'
import { remember } from './values'
import { assertionBudget, eventually, type Validation } from './validation'

When(
  'I click {target} and save the download to {text}',
  {
    description: 'Clicks an element that starts a download and saves the file (relative to the feature file; folders are created); remembers $download: .path, .name (the name the site suggested), .url.',
    example: ['When I click "#export" and save the download to "downloads/products.csv"', `When I click 'role=button[name="Price list"]' and save the download to "downloads/$uuid.txt"`],
  },
  step(async function (t: Target, file: string) {
    const l = locate(this, t)
    const timeout = assertionBudget(this)
    let download: Download
    try {
      ;[download] = await Promise.all([this.page.waitForEvent('download', { timeout }), l.click()])
    } catch (e: any) {
      if (/waitForEvent|Timeout/.test(e?.message ?? '') && !/locator\.click/.test(e?.message ?? '')) {
        throw new Error(`clicking ${t} started no download within ${timeout}ms (${l})`)
      }
      throw e
    }
    const failure = await download.failure()
    if (failure) throw new Error(`the download of ${download.url()} failed: ${failure}`)
    const path = fixturePath(this, file)
    await download.saveAs(path)
    remember(this, 'download', { path: file, name: download.suggestedFilename(), url: download.url() })
  }),
)

Then(
  'I expect the content of the file {text} {validation} {expected}',
  {
    description: 'Checks the text of a file (relative to the feature file), e.g. one a step downloaded; retries while the file is not there yet.',
    example: ['Then I expect the content of the file "downloads/products.csv" to contain "F-1,Milk,1.20"', 'Then I expect the content of the file "downloads/products.csv" not to contain "Caviar"'],
  },
  step(async function (file: string, v: Validation, expected: unknown) {
    const path = fixturePath(this, file)
    await eventually(this, `the content of the file ${JSON.stringify(file)}`, async () => {
      if (!existsSync(path)) throw new Error(`the file does not exist (looked for ${path}: a path is relative to the feature file's directory)`)
      return readFileSync(path, 'utf8')
    }, v, expected)
  }),
)
