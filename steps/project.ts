// The project's data: [steps] values and the page-object files. This file
// is what the library sees without a project; `ferridriver bdd` replaces it
// with the project's data when it bundles the library (steps.go).
import type { PageFile } from './pages'

/** [steps.values]: what `$name` gives when the scenario has not remembered name. */
export const values: Record<string, unknown> = {}
/** The page-object files ([steps] pages), parsed. */
export const pageFiles: PageFile[] = []
