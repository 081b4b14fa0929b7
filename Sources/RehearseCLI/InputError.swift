/// Bad input detected after parsing: a one-line error naming the input, exit code 2.
enum InputError {
    static func fail(_ message: String) -> RehearseError { .badInput(message) }
}
