// The built-in step library's entry: every category, in load order.
import './navigation'
