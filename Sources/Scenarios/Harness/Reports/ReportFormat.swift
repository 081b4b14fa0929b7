import Foundation

/// Formatting shared by the report writers (fixed formats, no locale).
public enum ReportFormat {
    /// `812µs`, `12.4ms`, `2.31s`, `3m05s`, `26h00m`.
    public static func duration(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        if nanoseconds < 1_000_000 { return String(format: "%.0fµs", value / 1e3) }
        if nanoseconds < 1_000_000_000 { return String(format: "%.1fms", value / 1e6) }
        if nanoseconds < 60_000_000_000 { return String(format: "%.2fs", value / 1e9) }
        let seconds = nanoseconds / 1_000_000_000
        if seconds < 3600 { return String(format: "%dm%02ds", seconds / 60, seconds % 60) }
        return String(format: "%dh%02dm", seconds / 3600, (seconds % 3600) / 60)
    }

    /// Milliseconds with three decimals, for tables.
    public static func milliseconds(_ nanoseconds: UInt64) -> String { String(format: "%.3f", Double(nanoseconds) / 1e6) }

    /// Escapes text for HTML.
    public static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// JSON encoder with sorted keys, so equal reports are equal bytes.
    public static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
