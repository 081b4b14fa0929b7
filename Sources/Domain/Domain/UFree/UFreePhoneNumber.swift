import SimulatedFirebase

/// Phone numbers as UFree's contact discovery reads them (docs/domain.md, "UFree contact
/// discovery"): the two numbering plans the simulator models, US (+1, ten national digits) and GB
/// (+44, a trunk 0 then ten digits), written the ways address books hold them (spaces, dashes,
/// dots, brackets, `+`, the international prefixes 011 and 00, a bracketed "(0)" after +44).
public enum UFreePhoneNumber {
    /// The E.164 form of `raw` as dialled from a device in `region` ("US" or "GB"), or nil when it
    /// is not a number of the plans modelled (letters, too few or too many digits, another country).
    public static func e164(_ raw: String, region: String) -> String? {
        var digits = ""
        var international = false
        for character in raw {
            if character == "+" && digits.isEmpty && !international {
                international = true
            } else if let value = character.asciiValue, value >= 48, value <= 57 {
                digits.append(character)
            } else if !" -().\u{00A0}/".contains(character) {
                return nil
            }
        }
        if !international {
            if region == "US", digits.hasPrefix("011") {
                digits.removeFirst(3)
                international = true
            } else if region == "GB", digits.hasPrefix("00") {
                digits.removeFirst(2)
                international = true
            }
        }
        if international {
            if digits.hasPrefix("1") { return digits.count == 11 ? "+" + digits : nil }
            if digits.hasPrefix("44") {
                var national = digits.dropFirst(2)
                if national.hasPrefix("0") { national = national.dropFirst() }  // "+44 (0)20 …"
                return national.count == 10 ? "+44" + national : nil
            }
            return nil
        }
        switch region {
        case "US":
            if digits.count == 11, digits.hasPrefix("1") { digits.removeFirst() }
            return digits.count == 10 ? "+1" + digits : nil
        case "GB":
            return digits.count == 11 && digits.hasPrefix("0") ? "+44" + digits.dropFirst() : nil
        default:
            return nil
        }
    }

    /// The seed's `hashedPhoneNumber` as a client computes it: an unkeyed hash of the E.164 form
    /// (standing for SHA-256; 16 hex digits). Anyone with the app's code can compute it, so over a
    /// numbering plan of a few million numbers it is inverted by trying them all.
    public static func publicHash(_ e164: String) -> String {
        StableHash.hex(fnv1a64("ufree-phone:" + e164))
    }

    /// The careful design's blind index: a keyed hash of the E.164 form with a server-only
    /// secret (standing for HMAC-SHA256 with a key in Secret Manager); without the key it cannot be
    /// computed, so a stored index reveals nothing that can be tried offline.
    static func blindIndex(_ e164: String, pepper: UInt64) -> String {
        var z = fnv1a64(e164) ^ (pepper &* 0x9E37_79B9_7F4A_7C15)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return StableHash.hex(z ^ (z >> 31) ^ pepper)
    }
}
