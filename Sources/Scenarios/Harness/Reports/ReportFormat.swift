import Foundation

/// Formatting shared by the report writers (fixed formats, no locale).
package enum ReportFormat {
    /// `812µs`, `12.4ms`, `2.31s`, `3m05s`, `26h00m`.
    package static func duration(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        if nanoseconds < 1_000_000 { return String(format: "%.0fµs", value / 1e3) }
        if nanoseconds < 1_000_000_000 { return String(format: "%.1fms", value / 1e6) }
        if nanoseconds < 60_000_000_000 { return String(format: "%.2fs", value / 1e9) }
        let seconds = nanoseconds / 1_000_000_000
        if seconds < 3600 { return String(format: "%dm%02ds", seconds / 60, seconds % 60) }
        return String(format: "%dh%02dm", seconds / 3600, (seconds % 3600) / 60)
    }

    /// Milliseconds with three decimals, for tables.
    package static func milliseconds(_ nanoseconds: UInt64) -> String { String(format: "%.3f", Double(nanoseconds) / 1e6) }

    /// Where escaped text goes: HTML, an XML 1.0 attribute or XML 1.0 element content.
    package enum Markup: Sendable {
        case html, xmlAttribute, xmlContent
    }

    /// Escapes text for HTML.
    package static func html(_ text: String) -> String { escape(text, for: .html) }

    /// `text` escaped for `markup`: `&`, `<`, `>`, `"` as entities everywhere. XML also writes `'` as
    /// `&apos;`, tab, newline and carriage return in an attribute as character references (a parser
    /// would fold them into spaces), and characters XML 1.0 cannot hold (other control characters,
    /// U+FFFE, U+FFFF) as U+FFFD.
    package static func escape(_ text: String, for markup: Markup) -> String {
        let xml = markup != .html, attribute = markup == .xmlAttribute
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'" where xml: out += "&apos;"
            case "\t" where attribute: out += "&#9;"
            case "\n" where attribute: out += "&#10;"
            case "\r" where attribute: out += "&#13;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where xml && (scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// JSON encoder with sorted keys, so equal reports are equal bytes.
    package static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
