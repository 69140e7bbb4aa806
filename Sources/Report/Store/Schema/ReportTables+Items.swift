/// The tables with a row per key, suggestion, task, underline, request or fix: the bulk of a
/// report, written at the `default` and `full` detail levels.
extension ReportTables {
    static let keyRows = KeyRows()
    static let taskExecutors = TaskExecutors()
    static let taskRows = TaskRows()
    static let underlines = Underlines()
    static let requests = Requests()
    static let fixes = Fixes()

    /// `key_rows`: a key and the suggestion computed for it, in one compact row.
    struct KeyRows: ReportTableDeclaration {
        let table: ReportTable
        let runID, keyIndex, touchNs: TableColumn<Int64>
        let editCode, waitNs, handlerNs, queuedAhead: TableColumn<Int64?>
        let versionAfterKey, suggestionNs, outcomeCode, waitedNs, ranNs: TableColumn<Int64?>
        let tooLate: TableColumn<Bool?>

        init() {
            var t = ReportTableBuilder(Self.self, "key_rows", rowPer: "key index with a key (edit) or a suggestion update it asked for")
            runID = t.runID()
            keyIndex = t.column("key_index")
            touchNs = t.column("touch_ns", "the key's touch (a suggestion's touch is its key's)")
            editCode = t.column("edit_code", "the key's edit (`edit_kinds`); NULL in a row only a suggestion needed")
            waitNs = t.column("wait_ns", "touch to handler start")
            handlerNs = t.column("handler_ns", "handler start to inserted")
            queuedAhead = t.column("queued_ahead", "tasks queued on the main thread at the touch")
            versionAfterKey = t.column("version_after_key",
                                       "the suggestion's text version − `key_index`; NULL (with the suggestion's other columns) when the key asked for none")
            suggestionNs = t.column("suggestion_ns", "the suggestion's latency, touch to end")
            outcomeCode = t.column("outcome_code", "the suggestion's outcome (`suggestion_outcomes`)")
            tooLate = t.column("too_late", "1 when the bar showed after the next touch")
            waitedNs = t.column("waited_ns", "time the suggestion's stages waited for threads")
            ranNs = t.column("ran_ns", "time the suggestion's stages ran")
            table = t.table(primaryKey: [runID, keyIndex], withoutRowID: true, retention: .items, readThrough: ["keys", "suggestions"])
        }
    }

    /// `task_executors`: the names of a run's executor threads, by code.
    struct TaskExecutors: ReportTableDeclaration {
        let table: ReportTable
        let runID, code: TableColumn<Int64>
        let name: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "task_executors", rowPer: "(run, executor thread) of a run that keeps its tasks")
            runID = t.runID()
            code = t.column("code", "the thread's index in the scenario's thread list")
            name = t.column("name")
            table = t.table(primaryKey: [runID, code], withoutRowID: true, retention: .timeline, role: .lookup)
        }
    }

    /// `task_rows`: one compact row per task an executor ran or cancelled.
    struct TaskRows: ReportTableDeclaration {
        let table: ReportTable
        let runID, seq, executorCode, idAfterSeq, kindCode, tag, releaseNs, waitNs, runNs, core, preemptions: TableColumn<Int64>
        let deadlineAfterReleaseNs: TableColumn<Int64?>
        let cancelled: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "task_rows", rowPer: "task run (or cancelled) by an executor")
            runID = t.runID()
            seq = t.column("seq", "the task's place in the run's task records")
            executorCode = t.column("executor_code", "its thread (`task_executors`)")
            idAfterSeq = t.column("id_after_seq", "the task's id − `seq`")
            kindCode = t.column("kind_code", "its kind of work (`work_kinds`)")
            tag = t.column("tag", "what it is about: a key index, a text version…")
            releaseNs = t.column("release_ns", "when it became ready")
            waitNs = t.column("wait_ns", "release to start")
            runNs = t.column("run_ns", "start to finish")
            deadlineAfterReleaseNs = t.column("deadline_after_release_ns", "its deadline − `release_ns`; NULL without one")
            core = t.column("core", "the core it ran on (−1 when cancelled before it ran)")
            preemptions = t.column("preemptions")
            cancelled = t.column("cancelled", "1 when cancelled while queued")
            table = t.table(primaryKey: [runID, seq], withoutRowID: true, retention: .timeline, readThrough: ["tasks"])
        }
    }

    /// `underlines`: one row per underline (chip).
    struct Underlines: ReportTableDeclaration {
        let table: ReportTable
        let runID, underlineID, wordOrdinal, wordLength, wordFinishedNs, endNs: TableColumn<Int64>
        let shownNs, confirmedNs, timeToUnderlineNs, timeToConfirmationNs: TableColumn<Int64?>
        let origin, outcome: TableColumn<String>
        let trueError, flicker: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "underlines", rowPer: "underline (chip)")
            runID = t.runID()
            underlineID = t.column("underline_id")
            wordOrdinal = t.column("word_ordinal", "the word's place among the words of its field's text when it was checked, from 0")
            wordLength = t.column("word_length")
            origin = t.column("origin", "`local`, `cloud`")
            trueError = t.column("true_error", "1 when the word is a real error")
            wordFinishedNs = t.column("word_finished_ns")
            shownNs = t.column("shown_ns")
            confirmedNs = t.column("confirmed_ns")
            endNs = t.column("end_ns")
            outcome = t.column("outcome", "`retracted`, `dropped`, `edited` (its word was edited), `field-changed` (closed with its "
                               + "field), `accepted`, `open`, `killed`; a confirmed underline that stays shows `open` with `confirmed_ns` set")
            flicker = t.column("flicker", "1 when retracted within the flicker window")
            timeToUnderlineNs = t.column("time_to_underline_ns")
            timeToConfirmationNs = t.column("time_to_confirmation_ns")
            table = t.table(primaryKey: [runID, underlineID], withoutRowID: true, retention: .items)
        }
    }

    /// `requests`: one row per request to the cloud checker, over its attempts.
    struct Requests: ReportTableDeclaration {
        let table: ReportTable
        let runID, requestID, sentNs, textVersion, characters, words, attempts, timeouts, offlineFailures: TableColumn<Int64>
        let networkNs, serviceNs, endNs, roundTripNs, lostWords: TableColumn<Int64>
        let inputTokens, cachedTokens, outputTokens, rejections, limitWaitNs, queueWaitNs: TableColumn<Int64>
        let costUSD: TableColumn<Double>
        let trigger, outcome: TableColumn<String>
        let rejection: TableColumn<String?>
        let stale: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "requests", rowPer: "request to the cloud checker, over its attempts")
            runID = t.runID()
            requestID = t.column("request_id")
            trigger = t.column("trigger", "`sentence-end`, `idle`, `fixed`, `leading-edge`, `trailing-edge`, `throttle`, `boundary`")
            sentNs = t.column("sent_ns", "when it first left the keyboard")
            textVersion = t.column("text_version", "the text version it carried")
            characters = t.column("characters", "characters sent: the text changed since the last confirmed state (the token proxy)")
            words = t.column("words", "words it asked about")
            attempts = t.column("attempts", "1 + retries")
            timeouts = t.column("timeouts")
            offlineFailures = t.column("offline_failures", "attempts that failed at once for lack of a network")
            networkNs = t.column("network_ns", "network round trip of the answered attempt")
            serviceNs = t.column("service_ns", "time the cloud model took on the answered attempt")
            endNs = t.column("end_ns", "when the answer arrived or the last attempt failed")
            roundTripNs = t.column("round_trip_ns", "`end_ns − sent_ns`")
            outcome = t.column("outcome", "`answered`, `failed`, `killed`, `revoked`, `cancelled`")
            stale = t.column("stale", "1 when the text changed while it was in flight")
            lostWords = t.column("lost_words", "words of a stale answer changed or gone when it arrived; 0: reconciled")
            inputTokens = t.column("input_tokens",
                                   "input tokens its served attempts were billed, cached ones included (system prompt + text, each attempt)",
                                   unit: "tokens")
            cachedTokens = t.column("cached_tokens", "of those, tokens read from the provider's prompt cache", unit: "tokens")
            outputTokens = t.column("output_tokens", "output tokens billed", unit: "tokens")
            costUSD = t.column("cost_usd", "what its served attempts cost: tokens × prices, exact picodollars ÷ 10¹²", unit: "USD")
            rejections = t.column("rejections", "attempts the backend refused (a limit or an overload)")
            rejection = t.column("rejection",
                                 "the last refusal's reason: `user-requests`, `user-tokens`, `provider-requests`, `provider-tokens`, `overloaded`, `too-large`; NULL when none was refused")
            limitWaitNs = t.column("limit_wait_ns", "time refusals added: from each refused attempt to the next attempt (or the end)")
            queueWaitNs = t.column("queue_wait_ns", "time the answered attempt waited in the backend's queue (0 for a private backend)")
            table = t.table(primaryKey: [runID, requestID], withoutRowID: true, retention: .items)
        }
    }

    /// `fixes`: one row per accepted chip.
    struct Fixes: ReportTableDeclaration {
        let table: ReportTable
        let runID, underlineID, wordOrdinal, acceptedNs: TableColumn<Int64>
        let applied, corrupted: TableColumn<Bool>
        let strategy: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "fixes", rowPer: "accepted chip")
            runID = t.runID()
            underlineID = t.column("underline_id")
            wordOrdinal = t.column("word_ordinal", "the chip's word's place in its field's text, from 0, as in `underlines`")
            acceptedNs = t.column("accepted_ns")
            applied = t.column("applied", "0 when dropped because the word was not where expected")
            corrupted = t.column("corrupted", "1 when the fix damaged the text")
            strategy = t.column("strategy", "the offset strategy used")
            table = t.table(primaryKey: [runID, underlineID], withoutRowID: true, retention: .items)
        }
    }
}
