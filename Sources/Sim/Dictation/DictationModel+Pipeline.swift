// The mechanics of the pipeline: cold starts, recording, transcription on the engines,
// the text coming back, and the session's end.

extension DictationModel {
    /// A tap with no session opens the app: it launches, turns the mic on and loads the
    /// model; the user swipes back meanwhile.
    mutating func openApp(for dictation: inout Dictation, at time: SimTime) -> [DictationAction] {
        let launch = config.appLaunch.sampleDuration(&launchTimes)
        let swipe = config.swipeBack.sampleDuration(&swipeTimes)
        let id = nextSessionID
        nextSessionID += 1
        session = Session(id: id, start: time, engine: config.sessionEngine, userBack: time + launch + swipe)
        dictation.session = id
        dictation.coldStartCost = launch + swipe
        dictation.startArrived = true
        return [.schedule(.appLaunched(session: id), at: time + launch)]
    }

    mutating func appLaunched(_ sessionID: Int, now: SimTime) -> [DictationAction] {
        guard var current = session, current.id == sessionID else { return [] }
        current.launched = now
        current.micOnSince = now
        current.modelLoad = config.modelLoad[current.engine].sampleDuration(&loadTimes)
        current.modelReady = now + current.modelLoad
        session = current
        var actions: [DictationAction] = [.schedule(.modelLoaded(session: sessionID), at: now + current.modelLoad)]
        for i in active.indices where active[i].session == sessionID && active[i].startArrived
            && active[i].recordingStart == nil {
            actions += beginRecording(at: i, now: now)
        }
        return actions
    }

    /// The app starts recording: with the mic on, the clip starts `preRoll` earlier (but not
    /// before the mic came on); a paused mic restarts now, with nothing buffered.
    mutating func beginRecording(at i: Int, now: SimTime) -> [DictationAction] {
        precondition(session?.id == active[i].session, "a dictation records only in its own session")
        if let micOn = session!.micOnSince {
            active[i].captureStart = Swift.max(micOn, now - config.preRoll)
        } else {
            session!.micOnSince = now
            active[i].captureStart = now
        }
        active[i].recordingStart = now
        if let stop = active[i].stopArrived { return endRecording(at: i, now: Swift.max(stop, now)) }
        return []
    }

    /// The stop reached the app: the clip ends (at the cap, if it is shorter), the mic idles
    /// and the transcription starts once the model is loaded.
    mutating func endRecording(at i: Int, now: SimTime) -> [DictationAction] {
        var d = active[i]
        d.recordingEnd = now
        let audioEnd = config.recordingCap.map { Swift.min(now, d.captureStart + $0) } ?? now
        d.clipLength = audioEnd - d.captureStart
        let spokenUntil = Swift.min(d.speechEnd, now)
        let lostFrom = Swift.max(audioEnd, d.speechStart)
        d.lostToCap = spokenUntil > lostFrom ? spokenUntil - lostFrom : .zero
        active[i] = d
        session!.dictations += 1
        session!.dictated = session!.dictated + d.clipLength
        var actions = sessionIdles(now: now)
        if let ready = session!.modelReady, ready <= now {
            actions += submitTranscription(at: i, now: now)
        } else {
            active[i].awaitingModel = true
        }
        return actions
    }

    /// After a recording ends with no other dictation pending: arm the idle timeout, or,
    /// under the pause policy, pause the mic and let iOS suspend the app.
    mutating func sessionIdles(now: SimTime) -> [DictationAction] {
        guard let current = session else { return [] }
        let busy = active.contains { $0.session == current.id && $0.recordingEnd == nil }
        guard !busy else { return [] }
        switch config.micPolicy {
        case .keepOn:
            guard closingAt == nil else { return [] }
            return [.arm(.idle, .idleTimeout(session: current.id), at: now + config.idleTimeout)]
        case .pauseBetweenDictations:
            micOff(at: now)
            guard closingAt == nil else { return [] }
            let delay = config.suspendDelay.sampleDuration(&suspendTimes)
            return [.arm(.suspension, .suspended(session: current.id), at: Swift.max(now, current.userBack) + delay)]
        }
    }

    mutating func micOff(at now: SimTime) {
        guard let since = session?.micOnSince else { return }
        session!.micOnTotal = session!.micOnTotal + (now - since)
        session!.micOnSince = nil
    }

    mutating func submitTranscription(at i: Int, now: SimTime) -> [DictationAction] {
        let d = active[i]
        let cost = config.transcription[d.engine].latency(clip: d.clipLength, u: transcriptionDraws.nextDouble())
        active[i].awaitingModel = false
        active[i].release = now
        active[i].modelLoadWait = now - d.recordingEnd!
        let task = ExecutorTask(id: UInt64(d.id), kind: 0, tag: Int64(d.id), cost: cost, context: Int32(truncatingIfNeeded: d.id))
        let device = d.engine == .neuralEngine ? 0 : 1
        guard let wake = devices[device].submit(task, now: now) else { return [] }
        return [.schedule(.deviceDone(d.engine, wake), at: wake.time)]
    }

    mutating func deviceDone(_ engine: DictationConfig.SpeechEngine, _ wake: CoreWake, now: SimTime) -> [DictationAction] {
        let device = engine == .neuralEngine ? 0 : 1
        guard let (record, next) = devices[device].complete(wake, now: now) else { return [] }
        var actions: [DictationAction] = []
        if let next { actions.append(.schedule(.deviceDone(engine, next), at: next.time)) }
        guard let i = index(of: Int(record.task.tag)) else { preconditionFailure("a transcription of an unknown dictation") }
        active[i].transcriptionStart = record.start
        active[i].transcriptionEnd = now
        actions.append(.schedule(.textReachedKeyboard(dictation: active[i].id), at: now + signalLatency()))
        return actions
    }

    mutating func textInserted(_ id: Int, now: SimTime) -> [DictationAction] {
        guard let i = index(of: id) else { return [] }
        let d = active.remove(at: i)
        let clipped = Swift.min(d.captureStart, d.speechEnd) - d.speechStart
        let stopToText = now - d.stopTap!
        let record = DictationRecord(
            id: d.id, session: d.session, tap: d.tap, coldStart: d.coldStartCost != nil, coldStartCost: d.coldStartCost,
            recordingStart: d.recordingStart!, captureStart: d.captureStart, speechStart: d.speechStart,
            speechEnd: d.speechEnd, clipped: clipped.nanoseconds > 0 ? clipped : .zero, stopTap: d.stopTap!,
            recordingEnd: d.recordingEnd!, clipLength: d.clipLength, speechLostToCap: d.lostToCap, engine: d.engine,
            modelLoadWait: d.modelLoadWait, transcriptionRelease: d.release, transcriptionStart: d.transcriptionStart,
            transcriptionEnd: d.transcriptionEnd, textInserted: now,
            overBudget: config.stopToTextBudget.map { stopToText > $0 } ?? false)
        var actions: [DictationAction] = [.insertText(d.transcript, dictation: d.id), .record(.dictation(record))]
        if let closing = closingAt, active.isEmpty, session != nil {
            actions += closeSession(at: Swift.max(closing, now), reason: .endOfTrace)
        }
        return actions
    }

    /// Ends the session: the mic goes off, its record is emitted, its timers are disarmed.
    mutating func closeSession(at now: SimTime, reason: DictationSessionRecord.EndReason) -> [DictationAction] {
        micOff(at: now)
        guard let s = session else { return [] }
        session = nil
        let record = DictationSessionRecord(
            id: s.id, start: s.start, micFirstOn: s.launched ?? now, end: now, endReason: reason, micOn: s.micOnTotal,
            dictations: s.dictations, dictated: s.dictated, engine: s.engine, modelLoad: s.modelLoad,
            peakMemoryMegabytes: config.peakMemoryMegabytes[s.engine], suspensions: reason == .suspended ? 1 : 0)
        return [.cancel(.idle), .cancel(.suspension), .record(.session(record))]
    }
}
