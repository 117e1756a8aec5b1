package jsbridge

import "github.com/dop251/goja"

// CurrentStep is the Gherkin step a VM is running. Step code reads it with
// currentStep() of module "ferridriver": the built-in steps resolve fixture
// files against the feature file's directory and name the step's line in
// their failure messages.
type CurrentStep struct {
	// URI is the feature file, relative to the project directory and
	// slash-separated, as in the Pickle.
	URI string
	// Line is the step's line in that file (1-based).
	Line int
	// Keyword is the step's keyword as written ("Given ", "And "...).
	Keyword string
	// Text is the step's text after the keyword.
	Text string
}

type currentStepKey struct{}

type currentStepHolder struct{ step *CurrentStep }

func init() {
	RegisterModule("ferridriver", func(vm *VM) (goja.Value, error) {
		o := vm.rt.NewObject()
		o.Set("currentStep", func(goja.FunctionCall) goja.Value {
			s := vm.currentStep().step
			if s == nil {
				return goja.Undefined()
			}
			v := vm.rt.NewObject()
			v.Set("uri", s.URI)
			v.Set("line", s.Line)
			v.Set("keyword", s.Keyword)
			v.Set("text", s.Text)
			return v
		})
		return o, nil
	})
}

func (vm *VM) currentStep() *currentStepHolder {
	return vm.Local(currentStepKey{}, func() any { return &currentStepHolder{} }).(*currentStepHolder)
}

// SetCurrentStep records the step about to run (nil: none, between steps).
// Loop goroutine only.
func (vm *VM) SetCurrentStep(s *CurrentStep) { vm.currentStep().step = s }
