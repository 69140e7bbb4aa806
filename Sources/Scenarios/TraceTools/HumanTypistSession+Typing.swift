import Sim

/// The typing of a `HumanTypist` session: characters key by key, words from the suggestion
/// bar, slips and their corrections.
extension HumanTypistSession {
    /// Types one segment of a message: its characters, or a dictation.
    mutating func type(_ segment: SynthScript.Segment) {
        switch segment {
        case .typed(let message):
            let characters = TypedCharacter.characters(of: message)
            var index = 0
            while index < characters.count { index = type(characters, at: index) }
        case let .dictation(audio, transcript, lengthNanos):
            if pendingSlip != nil { fixSlipAfterWord() }
            wait(pendingInterval ?? draw(.sentenceStart))
            pendingInterval = nil
            for event in TypistModel.dictation(audio: audio, transcript: transcript, lengthNanos: lengthNanos, at: time,
                                               &messageDraws) {
                // Offsets from the tap that starts it, whatever the typist's speed.
                wait(.fixed(event.time - time))
                emit(event.kind)
            }
            previousCorrects = false
        }
    }

    /// Types the character at `index` (or a whole word through the suggestion bar); returns
    /// the index of the next character to type.
    mutating func type(_ characters: [TypedCharacter], at index: Int) -> Int {
        let c = characters[index]
        if let tag = languages.switchBefore(c) {
            // The globe key, timed as a tap after a punctuation mark.
            wait(draw(.afterPunctuation))
            emit(.languageSwitch(language: tag))
        }
        if pendingSlip == nil, let length = suggestibleWordLength(characters, at: index),
           suggestions.bernoulli(profile.suggestions.pickRate) {
            let prefix = max(2, length / 2)
            for letter in characters[index..<(index + prefix)] { typeKey(letter) }
            pickSuggestion(String(characters[index..<(index + length)].map(\.character)))
            return index + length
        }
        let found = c.touch(onRussian: languages.currentIsCyrillic)
        if pendingSlip != nil {
            typeKey(c, found: found)
            pendingSlip!.typedAfter.append(c)
            if c.properties.isWhitespace { fixSlipAfterWord() }
            return index + 1
        }
        let errors = profile.errors
        guard found.letterLayer, errors.slipRate > 0, slips.bernoulli(errors.slipRate),
              let intended = c.key(onRussian: languages.currentIsCyrillic).key,
              let wrong = Planner.pickNeighbour(of: intended, on: letterLayout, &slips) else {
            typeKey(c, found: found)
            return index + 1
        }
        let wrongText = c.properties.isUppercase ? wrong.label.uppercased() : wrong.label
        key(wrongText, at: wrong.center, aim: intended.center)
        let fate = slips.nextDouble()
        if fate < errors.noticedInWordShare {
            // Up to two more letters of the word, then back over them and the slip.
            let wanted = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2][slips.nextInt(below: 10)]
            var next = index + 1
            while next - index - 1 < wanted, next < characters.count, characters[next].properties.isLetter,
                  characters[next].touch(onRussian: languages.currentIsCyrillic).letterLayer {
                typeKey(characters[next])
                next += 1
            }
            for _ in index..<next { backspace() }
            typeKey(c, found: found)
        } else if fate < errors.noticedInWordShare + errors.noticedAfterWordShare {
            pendingSlip = (c, [])
        }
        return index + 1
    }

    /// Fixes the pending slip: moves the cursor back to it, or backspaces over everything
    /// typed after it, and types the letter meant.
    mutating func fixSlipAfterWord() {
        guard let slip = pendingSlip else { return }
        pendingSlip = nil
        let after = slip.typedAfter.count
        if after > 0 && slips.bernoulli(profile.errors.cursorFixShare) {
            moveCursor(by: -after)
            backspace()
            typeKey(slip.correct)
            moveCursor(by: after)
        } else {
            for _ in 0...after { backspace() }
            typeKey(slip.correct)
            for c in slip.typedAfter { typeKey(c) }
        }
    }

    /// Types `c` on its key, without a slip.
    mutating func typeKey(_ c: TypedCharacter) {
        typeKey(c, found: c.touch(onRussian: languages.currentIsCyrillic))
    }

    /// Types `c` on `found`, its key on the current layout, without a slip.
    mutating func typeKey(_ c: TypedCharacter, found: TypedCharacter.Touch) {
        key(String(c.character), ascii: c.asciiByte, at: found.center)
    }

    func suggestibleWordLength(_ characters: [TypedCharacter], at index: Int) -> Int? {
        guard profile.suggestions.pickRate > 0 else { return nil }
        return HumanTypist.suggestibleWordLength(characters, at: index, minimumLength: profile.suggestions.minimumLength)
    }
}

