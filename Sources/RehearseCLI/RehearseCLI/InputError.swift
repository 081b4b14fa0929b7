/// Bad input detected after parsing: a one-line error naming the input, exit code 2.
package enum InputError {
    package static func fail(_ message: String) -> RehearseError { .badInput(message) }
}
