import Sim

/// The keyboard language while a typist types, and when it must change: a Latin letter
/// typed in a Cyrillic language, or a Cyrillic letter in a Latin one, needs the globe key
/// first. Shared by both typists (`TypistModel`, `HumanTypist`), so that they switch at the
/// same letters and to the same tags.
///
/// The start language decides the pair: a Cyrillic start (`ru`, `uk`, …) switches to `en`
/// for Latin letters and back to itself; any other start switches to `ru` for Cyrillic
/// letters and back to itself.
struct TypingLanguages: Sendable, Equatable {
    /// The language the keyboard is in now.
    private(set) var current: String
    /// Whether `current` is written in Cyrillic, kept with it so that the typist asks no tag
    /// question per character.
    private(set) var currentIsCyrillic: Bool
    /// The language switched to for Latin letters.
    let latin: String
    /// The language switched to for Cyrillic letters.
    let cyrillic: String

    /// The languages of a typist whose keyboard starts in `start`.
    init(start: String) {
        current = start
        let startsCyrillic = Self.isCyrillicLanguage(start)
        currentIsCyrillic = startsCyrillic
        latin = startsCyrillic ? "en" : start
        cyrillic = startsCyrillic ? start : "ru"
    }

    /// The letter layer of the current language: ЙЦУКЕН for a Cyrillic one, QWERTY otherwise.
    var letterLayout: KeyboardLayout { currentIsCyrillic ? .russian : .qwerty }

    /// The language to switch to before typing `c`, or `nil` when the current one types it;
    /// the switch is taken (`current` becomes the returned tag).
    mutating func switchBefore(_ c: Character) -> String? {
        switchBefore(isLatinLetter: Self.isLatinLetter(c), isCyrillicLetter: Self.isCyrillicLetter(c))
    }

    /// `switchBefore(_:)` of a character whose script is known (`TypedCharacter`).
    mutating func switchBefore(_ c: TypedCharacter) -> String? {
        switchBefore(isLatinLetter: c.properties.isLatinLetter, isCyrillicLetter: c.properties.isCyrillicLetter)
    }

    private mutating func switchBefore(isLatinLetter: Bool, isCyrillicLetter: Bool) -> String? {
        let next: String
        if isLatinLetter && currentIsCyrillic {
            next = latin
        } else if isCyrillicLetter && !currentIsCyrillic {
            next = cyrillic
        } else {
            return nil
        }
        current = next
        // `latin` is never a Cyrillic language and `cyrillic` always is (see `init`), but
        // the tag's own answer is asked once per switch all the same.
        currentIsCyrillic = Self.isCyrillicLanguage(next)
        return next
    }

    /// Whether `tag`'s primary language is written in Cyrillic.
    static func isCyrillicLanguage(_ tag: String) -> Bool {
        let primary = tag.split(separator: "-").first.map(String.init)?.lowercased() ?? ""
        return ["ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "tg", "mn"].contains(primary)
    }

    /// Whether `c` is a Latin letter (Basic Latin, Latin-1, Latin Extended-A and -B).
    static func isLatinLetter(_ c: Character) -> Bool {
        guard c.isLetter, let scalar = c.unicodeScalars.first else { return false }
        return scalar.value < 0x250
    }

    /// Whether `c` is a Cyrillic letter.
    static func isCyrillicLetter(_ c: Character) -> Bool {
        guard c.isLetter, let scalar = c.unicodeScalars.first else { return false }
        return (0x400...0x52F).contains(scalar.value)
    }
}
