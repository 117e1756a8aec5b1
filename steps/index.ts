// The built-in step library's entry: every category, in load order, and
// the library's API, which the project's own steps import as
// 'ferridriver/steps':
//
//   import { locate, remember, recall, definePage } from 'ferridriver/steps'
//
// Parameter types first: the steps' expressions use them.
import './validation'
import './params'
import './navigation'
import './interaction'
import './keyboard'
import './mouse'
import './assertions'
import './waits'
import './network'
import './storage'
import './cookies'
import './frames'
import './dialogs'
import './tabs'
import './emulation'
import './javascript'
import './screenshots'
import './memory'
import './api'
import './collections'
import './until'
import './downloads'
import './intercept'
import './soft'

export { remember, recall, interpolate, interpolateString, interpolateRows, addValueSource, memoryOf, type ValueSource } from './values'
export { check, verify, eventually, withAssertionTimeout, assertionTimeout, parseValidation, AssertionError, type Validation } from './validation'
export { Target } from './params'
export { locate, locateFrame, rootOf } from './targets'
export { definePage, type Root } from './pages'
export { fixturePath, stepLocation } from './scenario'
export { step } from './step'
