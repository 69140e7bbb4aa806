/// The touch model's state within one replication: the word being typed, the newest
/// finished prediction, and touches waiting for a prediction that is still being computed.
///
/// The keyboard model calls it at three points: a key event with a touch point arrives
/// (`touched`), an edit lands (`edited`, which returns the prediction a `predict` task then
/// takes time to deliver), and a `predict` task finishes (`predictionFinished`). Touch `i`
/// needs the prediction made after edit `i − 1`: if that task finished at or before the
/// touch-down, the boundaries around the predicted key move; otherwise the drawn layout
/// decides and the touch is recorded as late, by how much, once the prediction arrives.
/// The replayed text never changes: the model measures what the touch would have hit.
struct TouchModel {
    /// A touch waiting for the prediction after edit `keyIndex − 1`.
    private struct Pending {
        var keyIndex: Int
        var touch: SimTime
        var point: TouchPoint
        var intended: Int
    }

    let config: TouchConfig
    let geometry: TouchGeometry
    let predictor: NextLetterPredictor
    /// The key of each predictor symbol on the layer (-1: none), by code.
    private let keyOfSymbol: [Int]
    private var word = WordContext()
    /// The newest finished prediction: for which edit, what, and when it finished.
    private var readyEdit = -1
    private var readyPrediction: NextLetterPredictor.Prediction?
    private var readyAt = SimTime.zero
    private var pending: [Pending] = []

    /// Whether touches are still waiting for predictions.
    var isIdle: Bool { pending.isEmpty }

    /// The model of `config`, or `nil` when it is off.
    init?(_ config: TouchConfig) {
        guard config.enabled, let predictor = config.predictor, let layout = KeyboardLayout.named(config.layoutName) else {
            return nil
        }
        self.config = config
        self.predictor = predictor
        let geometry = TouchGeometry(layout)
        self.geometry = geometry
        keyOfSymbol = predictor.symbols.enumerated().map { code, symbol in
            code == Int(NextLetterPredictor.boundary) ? geometry.spaceIndex : (geometry.keyIndex(typing: String(symbol)) ?? -1)
        }
        // Before the first edit the keyboard already holds the word-start prediction.
        readyPrediction = predictor.predict(after: word)
    }

    /// A key event at `time`: hit-tests it now if its prediction is ready, otherwise parks it.
    /// Events whose text is not one key of the layer are not measured.
    mutating func touched<Sink: ObservationSink>(keyIndex: Int, kind: TraceEvent.Kind, at time: SimTime, into sink: inout Sink) {
        let intended: Int?
        let point: TouchPoint
        switch kind {
        case .key(let text, _, let p?):
            intended = geometry.keyIndex(typing: text)
            point = p
        case .backspace(_, let p?):
            intended = geometry.backspaceIndex
            point = p
        default:
            return
        }
        guard let intended else { return }
        let touch = Pending(keyIndex: keyIndex, touch: time, point: point, intended: intended)
        if readyEdit == keyIndex - 1 {
            decide(touch, prediction: readyPrediction, done: readyAt, into: &sink)
        } else {
            pending.append(touch)
        }
    }

    /// An edit landed: the word being typed changes, and the prediction after it is what the
    /// `predict` task will deliver.
    mutating func edited(_ kind: EditKind, inserting text: String?) -> NextLetterPredictor.Prediction? {
        switch kind {
        case .insert, .paste: if let text { insert(text) }
        case .delete: word.pop()
        case .suggestion:
            word.reset()
            if let text { insert(text) }
        }
        return predictor.predict(after: word)
    }

    /// The `predict` task after edit `editIndex` finished at `time`: touches waiting for it
    /// are decided on the plain layout, late.
    mutating func predictionFinished<Sink: ObservationSink>(editIndex: Int, prediction: NextLetterPredictor.Prediction?,
                                                            at time: SimTime, into sink: inout Sink) {
        if editIndex > readyEdit {
            readyEdit = editIndex
            readyPrediction = prediction
            readyAt = time
        }
        guard !pending.isEmpty else { return }
        var index = 0
        while index < pending.count {
            if pending[index].keyIndex == editIndex + 1 {
                decide(pending.remove(at: index), prediction: prediction, done: time, into: &sink)
            } else {
                index += 1
            }
        }
    }

    private mutating func insert(_ text: String) {
        // ASCII fast path: one table lookup a byte; a byte the predictor never saw ends the word.
        var ascii = true
        for byte in text.utf8 where byte >= 128 { ascii = false; break }
        if ascii {
            for byte in text.utf8 {
                if let code = predictor.code(ascii: byte) { word.push(code) } else { word.reset() }
            }
        } else {
            for character in text {
                if let code = predictor.code(of: character) { word.push(code) } else { word.reset() }
            }
        }
    }

    private func decide<Sink: ObservationSink>(_ touch: Pending, prediction: NextLetterPredictor.Prediction?, done: SimTime,
                                               into sink: inout Sink) {
        let plain = geometry.plainHit(touch.point)
        var predicted: Int?
        if let prediction, Int(prediction.symbol) < keyOfSymbol.count, keyOfSymbol[Int(prediction.symbol)] >= 0 {
            predicted = keyOfSymbol[Int(prediction.symbol)]
        }
        var shifted = plain
        var shift = 0.0
        if done <= touch.touch, let predicted, let prediction {
            shift = config.shiftPoints(probability: prediction.probability)
            shifted = geometry.hit(touch.point, favouring: predicted, shift: shift)
        }
        sink.record(.touch(TouchObservation(keyIndex: touch.keyIndex, touch: touch.touch, intendedKey: touch.intended,
                                            plainKey: plain, shiftedKey: shifted, predictedKey: predicted,
                                            probability: prediction?.probability ?? 0, shiftPoints: shift, predictionDone: done)))
    }
}
