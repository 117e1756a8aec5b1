// The built-in step library's entry: every category, in load order.
// Parameter types first: the steps' expressions use them.
import './validation'
import './navigation'
