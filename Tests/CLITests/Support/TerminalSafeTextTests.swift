@testable import RiderCLI
import Testing

@Suite("CLI TerminalSafeText: text from outside is shown, never obeyed")
struct TerminalSafeTextTests {
    @Test("C0 controls, DEL, C1 controls and bidi overrides are written out visibly, never dropped", arguments: [
        ("\u{1B}", #"\e"#), ("\u{07}", #"\a"#), ("\r", #"\r"#), ("\n", #"\n"#), ("\t", #"\t"#),
        ("\u{08}", #"\b"#), ("\u{0B}", #"\v"#), ("\u{0C}", #"\f"#), ("\u{00}", #"\0"#),
        ("\u{01}", #"\u{01}"#), ("\u{1F}", #"\u{1F}"#), ("\u{7F}", #"\u{7F}"#),
        ("\u{80}", #"\u{80}"#), ("\u{9B}", #"\u{9B}"#), ("\u{9D}", #"\u{9D}"#), ("\u{9F}", #"\u{9F}"#),
        ("\u{202A}", #"\u{202A}"#), ("\u{202E}", #"\u{202E}"#), ("\u{2066}", #"\u{2066}"#),
        ("\u{2069}", #"\u{2069}"#),
    ])
    func escapesEachDangerousCharacter(character: String, shown: String) {
        #expect(TerminalSafeText.escape("a\(character)b") == "a\(shown)b")
    }

    @Test("the window-title, colour and carriage-return attack becomes one inert line")
    func titleAttack() {
        let name = "Zed\u{1B}]0;PWNED\u{07}\u{1B}[31mRED\u{1B}[0m\rFAKE"
        #expect(name.terminalSafe == #"Zed\e]0;PWNED\a\e[31mRED\e[0m\rFAKE"#)
    }

    @Test("ordinary text is left exactly as it is: accents, CJK, emoji, backslashes, RTL letters")
    func ordinaryTextUntouched() {
        for text in ["José García", "Zoe\u{0308} Li", "東京 太郎", "🚴 Ana", #"back\slash \e"#, "מרים", "a\u{200D}b", ""] {
            #expect(text.terminalSafe == text)
        }
    }

    @Test("escaped text has nothing left to escape, so escaping twice changes nothing")
    func idempotent() {
        let hostile = "\u{1B}[2J\u{9B}31m\u{202E}evil\u{2066}\r\n\u{7F}"
        let once = hostile.terminalSafe
        #expect(!once.unicodeScalars.contains(where: TerminalSafeText.needsEscaping))
        #expect(once.terminalSafe == once)
        #expect(TerminalSafeText.line(once, keepingStyle: true) == once)
    }

    @Test("a user code in Zalgo keeps two combining marks per character; the rest are written out, not dropped")
    func combiningMarksCapped() {
        let tower = String(repeating: "\u{0301}\u{0316}", count: 20)  // 40 marks on one letter
        let code = "W" + tower + "DJB-HJKL"
        let shown = code.terminalSafe
        #expect(shown.hasPrefix("W\u{0301}\u{0316}" + #"\u{301}\u{316}"#))
        #expect(shown.hasSuffix(#"\u{316}DJB-HJKL"#))
        #expect(shown.unicodeScalars.filter(TerminalSafeText.isCombiningMark).count == 2)
        #expect(shown.terminalSafe == shown, "escaping twice changes nothing")
        #expect(TerminalSafeText.line(code, keepingStyle: true) == shown)
        // Every character of a line keeps its own two: the count starts again at each letter.
        #expect("a\u{0301}\u{0302}b\u{0303}\u{0304}".terminalSafe == "a\u{0301}\u{0302}b\u{0303}\u{0304}")
    }

    @Test("ordinary stacked marks are kept: decomposed Vietnamese, a keycap emoji")
    func ordinaryMarksKept() {
        for text in ["Nguye\u{0302}\u{0303}n", "1\u{FE0F}\u{20E3}", "e\u{0323}\u{0302}"] {
            #expect(text.terminalSafe == text)
        }
    }

    @Test("a CR LF pair, one Swift character, is still two escapes")
    func carriageReturnLineFeed() {
        #expect("a\r\nb".terminalSafe == #"a\r\nb"#)
    }

    @Test("a line keeps TextStyle's own bold, dim and reset when styled, and nothing else")
    func lineKeepsOnlyOwnStyle() {
        let styled = TextStyle.ansi.bold("ID") + "  " + TextStyle.ansi.dim("u_1")
        #expect(TerminalSafeText.line(styled, keepingStyle: true) == styled)
        #expect(TerminalSafeText.line(styled, keepingStyle: false) == #"\e[1mID\e[0m  \e[2mu_1\e[0m"#)
        let injected = "\u{1B}[31mred\u{1B}]52;c;Zm9v\u{07}\u{1B}[1"
        #expect(TerminalSafeText.line(injected, keepingStyle: true) == #"\e[31mred\e]52;c;Zm9v\a\e[1"#)
    }
}
