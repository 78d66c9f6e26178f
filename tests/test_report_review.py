"""The code-review formats: sarif (validated against the official SARIF 2.1.0 schema), rdjson,
gitlab and junit; their shared fingerprint; stdout holding nothing but the document."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest

from gradlint import cli
from gradlint.finding import Finding, Severity, Verdict
from gradlint.report import FORMATS, gitlab, junit, rdjson, review, sarif
from gradlint.rule import RULES

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
REVIEW_FORMATS = ("sarif", "rdjson", "gitlab", "junit")

SOURCE = "import torch\n\ndef f(x):\n    return x.detach()\n"
ODD_PATH = "dir with space/mödel #1.py"
ODD_SOURCE = "x = 'é∇'; y = w.data  # <&\">\n"
ODD_MESSAGE = 'the <&"> result\nof `é∇` is detached'


def finding(**changes) -> Finding:
    values = dict(path="model.py", line=4, column=12, code="GL001", end_line=4, end_column=22,
                  name="detached-result", message="the result is detached", hint="drop .detach()")
    values.update(changes)
    return Finding(**values)


def mixed() -> tuple[list[Finding], dict]:
    """A confirmed finding, a GL000 (severity error), and one with awkward characters."""
    findings = sorted([
        finding(verdict=Verdict("confirmed", "`w` got no gradient (line 4)")),
        finding(path="broken.py", line=1, column=8, end_line=1, end_column=9, code="GL000",
                name="syntax-error", message="syntax error: '(' was never closed", hint="",
                severity=Severity.ERROR),
        finding(path=ODD_PATH, line=1, column=16, end_line=1, end_column=22, message=ODD_MESSAGE,
                hint="use `w` <not> w.data & co"),
    ])
    sources = {"model.py": SOURCE, "broken.py": "print((1\n", ODD_PATH: ODD_SOURCE}
    return findings, sources


def render(write, findings, sources, errors=()) -> str:
    out = io.StringIO()
    write(findings, out, sources, errors)
    return out.getvalue()


def validate_sarif(log: dict) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    for result in log["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        # A URI reference: no scheme (so relative) unless absolute, nothing left unencoded.
        assert " " not in uri and "#" not in urlsplit(uri).path


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- the shared pieces -----------------------------------------------------------------------


def test_every_review_format_is_registered_and_a_machine_format():
    assert {name: FORMATS[name] for name in REVIEW_FORMATS} == {
        "sarif": sarif.write, "rdjson": rdjson.write, "gitlab": gitlab.write, "junit": junit.write}
    assert set(REVIEW_FORMATS) <= set(cli.MACHINE_FORMATS)


def test_fingerprint_survives_lines_inserted_above_and_tracks_the_line_itself():
    before = finding()
    [old] = review.fingerprints([before], {"model.py": SOURCE})
    moved = finding(line=7, end_line=7)
    [new] = review.fingerprints([moved], {"model.py": "import os\nimport sys\n\n" + SOURCE})
    assert new == old
    reindented = "import torch\n\nclass A:\n  def f(x):\n          return   x.detach()\n"
    assert review.fingerprints([finding(line=5, end_line=5)], {"model.py": reindented}) == [old]
    [changed] = review.fingerprints([before], {"model.py": SOURCE.replace("x.detach()", "y.detach()")})
    assert changed != old
    [other_rule] = review.fingerprints([finding(code="GL005")], {"model.py": SOURCE})
    assert other_rule != old


def test_fingerprints_of_identical_lines_differ_and_keep_their_order():
    source = "a = w.detach()\na = w.detach()\n"
    findings = [finding(line=1, end_line=1, column=5, end_column=15),
                finding(line=2, end_line=2, column=5, end_column=15)]
    first, second = review.fingerprints(findings, {"model.py": source})
    assert first != second
    # Inserting a line above both moves them; each keeps its own fingerprint.
    shifted = [finding(line=2, end_line=2, column=5, end_column=15),
               finding(line=3, end_line=3, column=5, end_column=15)]
    assert review.fingerprints(shifted, {"model.py": "\n" + source}) == [first, second]


def test_a_notebook_finding_is_fingerprinted_by_its_cell_text():
    cell = finding(path="nb.ipynb", cell=3, line=1, end_line=1)
    [one] = review.fingerprints([cell], {("nb.ipynb", 3): "y = x.detach()\n"})
    [moved] = review.fingerprints([finding(path="nb.ipynb", cell=5, line=1, end_line=1)],
                                  {("nb.ipynb", 5): "y = x.detach()\n"})
    [edited] = review.fingerprints([cell], {("nb.ipynb", 3): "y = z.detach()\n"})
    assert one == moved != edited


def test_paths_are_relative_to_the_current_folder_posix_and_absolute_outside_it(here):
    assert review.path(str(here / "sub" / "m.py")) == "sub/m.py"
    assert review.path("./sub/../m.py") == "m.py"
    assert review.path("-") == "-"
    outside = str(here.parent / "elsewhere.py")
    assert review.path(outside) == Path(outside).as_posix()


# --- every format: empty and mixed runs ----------------------------------------------------------


@pytest.mark.parametrize("name", REVIEW_FORMATS)
def test_a_run_without_findings_is_a_valid_empty_document(name):
    text = render(FORMATS[name], [], {})
    if name == "sarif":
        log = json.loads(text)
        validate_sarif(log)
        assert log["runs"][0]["results"] == []
    elif name == "rdjson":
        assert json.loads(text)["diagnostics"] == []
    elif name == "gitlab":
        assert json.loads(text) == []
    else:
        root = ET.fromstring(text.encode("ascii"))
        assert (root.tag, root.get("failures")) == ("testsuites", "0")
        assert [case.get("name") for case in root.iter("testcase")] == ["No findings"]
        assert not list(root.iter("failure"))


@pytest.mark.parametrize("name", REVIEW_FORMATS)
def test_awkward_characters_come_back_as_written(name, here):
    findings, sources = mixed()
    text = render(FORMATS[name], findings, sources)
    text.encode("ascii")  # escaped, so any output encoding carries it
    if name == "junit":
        messages = [f.get("message") for f in ET.fromstring(text.encode("ascii")).iter("failure")]
        bodies = [f.text for f in ET.fromstring(text.encode("ascii")).iter("failure")]
    else:
        data = json.loads(text)
        items = {"sarif": lambda: [r["message"]["text"] for r in data["runs"][0]["results"]],
                 "rdjson": lambda: [d["message"] for d in data["diagnostics"]],
                 "gitlab": lambda: [i["description"] for i in data]}[name]()
        messages = bodies = items
    assert any(ODD_MESSAGE in message for message in messages), messages
    assert any("use `w` <not> w.data & co" in body for body in bodies)
    assert any("dynamic: confirmed: `w` got no gradient" in body for body in bodies)


# --- sarif ---------------------------------------------------------------------------------------


def test_the_schema_is_the_official_sarif_2_1_0_one():
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert SCHEMA["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-04/schema#"
    jsonschema.Draft4Validator.check_schema(SCHEMA)


def test_the_schema_rejects_what_sarif_forbids():
    # The validation below can fail: a level SARIF does not know, a column 0, a missing message.
    log = sarif.log(*mixed())
    for break_it in (lambda r: r.update(level="fatal"),
                     lambda r: r["locations"][0]["physicalLocation"]["region"].update(startColumn=0),
                     lambda r: r.pop("message")):
        broken = json.loads(json.dumps(log))
        break_it(broken["runs"][0]["results"][0])
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft4Validator(SCHEMA).validate(broken)


def test_sarif_of_a_run_over_the_fixtures_validates_and_stdout_is_only_sarif(fixture_set):
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--output-format", "sarif",
                           "--statistics", "fixtures"], cwd=fixture_set.parent, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)  # the whole of stdout is one JSON document
    validate_sarif(log)
    assert "Found " in proc.stderr and "GL001" in proc.stderr  # summary and statistics on stderr
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [rule.code for rule in RULES]
    results = run["results"]
    listed = json.loads(subprocess.run([sys.executable, "-m", "gradlint", "check", "--output-format", "json",
                                        "fixtures"], cwd=fixture_set.parent, capture_output=True, text=True).stdout)
    assert len(results) == len(listed) > 50
    for result, plain in zip(results, listed):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == plain["code"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": plain["path"], "uriBaseId": "%SRCROOT%"}
        if "cell" in plain:  # a notebook's lines are not its JSON's: the alert is on the file
            assert "region" not in location
            place = result["properties"]
            assert (place["cell"], place["line"], place["column"]) == (plain["cell"], plain["line"], plain["column"])
            continue
        region = location["region"]
        assert (region["startLine"], region["startColumn"], region["endColumn"]) == (
            plain["line"], plain["column"], plain["end_column"])
    fingerprints = [r["partialFingerprints"]["primaryLocationLineHash"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert run["automationDetails"] == {"id": "gradlint/"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == fixture_set.parent.as_uri() + "/"


def test_sarif_describes_every_rule_from_its_page():
    rules = sarif.log([], {})["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) == len(RULES)
    for rule, descriptor in zip(RULES, rules):
        doc = rule.doc()
        assert descriptor["id"] == rule.code and descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary.replace("`", "")
        full = descriptor["fullDescription"]["text"]
        assert len(full) <= 1024 and "`" not in full and "\n## " not in full
        section = doc.split("## What it finds", 1)[1].split("\n## ", 1)[0]
        first_words = " ".join(section.split()[:6]).replace("`", "")
        assert full.startswith(first_words), (rule.code, full[:80])
        assert descriptor["help"]["markdown"] == doc
        assert "What it finds" in descriptor["help"]["text"] and "```" not in descriptor["help"]["text"]
        expected = "error" if rule.severity is Severity.ERROR else "warning"
        assert descriptor["defaultConfiguration"]["level"] == expected
        assert descriptor["properties"]["problem.severity"] == expected
        assert descriptor["properties"]["precision"] in ("very-high", "high", "medium", "low")
        assert descriptor["properties"]["tags"]


def test_sarif_results_carry_level_precision_text_and_an_encoded_relative_uri(here):
    findings, sources = mixed()
    log = sarif.log(findings, sources)
    validate_sarif(log)
    results = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in log["runs"][0]["results"]}
    assert set(results) == {"broken.py", "model.py", "dir%20with%20space/m%C3%B6del%20%231.py"}
    assert unquote("dir%20with%20space/m%C3%B6del%20%231.py") == ODD_PATH
    confirmed, broken, odd = results["model.py"], results["broken.py"], results["dir%20with%20space/m%C3%B6del%20%231.py"]
    assert confirmed["properties"]["precision"] == "very-high" and confirmed["level"] == "warning"
    assert confirmed["message"]["text"] == (
        "the result is detached\ndynamic: confirmed: `w` got no gradient (line 4)\nhint: drop .detach()")
    assert broken["level"] == "error" and broken["ruleIndex"] == 0
    assert odd["properties"]["precision"] == "high"
    assert odd["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1, "startColumn": 16, "endLine": 1, "endColumn": 22}
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
               for r in results.values())
    assert log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == here.as_uri() + "/"


def test_sarif_a_dismissed_finding_is_a_note_and_a_file_outside_the_folder_is_absolute(here):
    outside = here.parent / "outside.py"
    log = sarif.log([finding(path=str(outside), verdict=Verdict("dismissed", "w.grad is set"))], {})
    validate_sarif(log)
    [result] = log["runs"][0]["results"]
    assert result["level"] == "note" and result["properties"]["precision"] == "high"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": outside.as_uri()}


def test_sarif_fingerprint_is_unchanged_when_lines_are_inserted_above():
    def fingerprint(findings, sources):
        return [r["partialFingerprints"]["primaryLocationLineHash"] for r in sarif.log(findings, sources)["runs"][0]["results"]]

    verdict = Verdict("confirmed", "no gradient")
    old = fingerprint([finding(verdict=verdict)], {"model.py": SOURCE})
    new = fingerprint([finding(line=9, end_line=9, verdict=verdict)], {"model.py": "\n" * 5 + SOURCE})
    assert old == new
    assert gitlab.issue(finding(), old[0])["fingerprint"] == old[0]
    gitlab_fingerprints = [i["fingerprint"] for i in json.loads(render(gitlab.write, [finding()], {"model.py": SOURCE}))]
    assert gitlab_fingerprints == old  # one fingerprint for both formats


def test_sarif_a_notebook_finding_keeps_the_notebook_uri_and_names_its_cell():
    nb = finding(path="nb.ipynb", cell=3, line=2, end_line=2)
    log = sarif.log([nb], {("nb.ipynb", 3): "a = 1\nreturn x.detach()\n"})
    validate_sarif(log)
    [result] = log["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "nb.ipynb"
    assert "region" not in location
    assert (result["properties"]["cell"], result["properties"]["line"]) == (3, 2)
    assert result["message"]["text"].startswith("cell 3, line 2: the result is detached")


def test_sarif_names_the_project_page_when_the_package_declares_one(monkeypatch):
    monkeypatch.setattr(review, "home", lambda: "https://example.org/gradlint")
    log = sarif.log([], {})
    validate_sarif(log)
    assert log["runs"][0]["tool"]["driver"]["informationUri"] == "https://example.org/gradlint"


def test_plain_text_of_markdown():
    text = sarif.plain("# T\n\nA `x.detach()`\nwrapped [link](https://e.org).\n\n- one\n- two\n  more\n\n```python\ny = 1\n```\n")
    assert text == "T\n\nA x.detach() wrapped link.\n\n- one\n- two more\n\n    y = 1"


# --- rdjson --------------------------------------------------------------------------------------


def test_rdjson_diagnostics_with_byte_columns_severity_and_code(here):
    findings, sources = mixed()
    data = json.loads(render(rdjson.write, findings, sources))
    assert data["source"]["name"] == "gradlint"
    by_path = {d["location"]["path"]: d for d in data["diagnostics"]}
    assert set(by_path) == {"broken.py", "model.py", ODD_PATH}
    # 'é∇' before the finding: 5 bytes for 2 characters, so columns move by 3.
    assert by_path[ODD_PATH]["location"]["range"] == {"start": {"line": 1, "column": 19},
                                                      "end": {"line": 1, "column": 25}}
    assert by_path["model.py"]["location"]["range"] == {"start": {"line": 4, "column": 12},
                                                        "end": {"line": 4, "column": 22}}
    assert by_path["broken.py"]["severity"] == "ERROR" and by_path["model.py"]["severity"] == "WARNING"
    assert by_path["model.py"]["code"] == {"value": "GL001"}
    dismissed = rdjson.diagnostic(finding(verdict=Verdict("dismissed", "fine")), [])
    assert dismissed["severity"] == "INFO"
    assert dismissed["location"]["range"]["start"] == {"line": 4, "column": 12}  # no text: characters


def test_rdjson_a_notebook_finding_has_no_range_and_names_its_cell():
    nb = rdjson.diagnostic(finding(path="nb.ipynb", cell=2), [])
    assert "range" not in nb["location"] and nb["message"].startswith("cell 2, line 4: ")


# --- gitlab --------------------------------------------------------------------------------------


def test_gitlab_issues_have_the_code_quality_fields(here):
    findings, sources = mixed()
    issues = json.loads(render(gitlab.write, findings, sources))
    assert [sorted(issue) for issue in issues] == [
        ["check_name", "description", "fingerprint", "location", "severity"]] * 3
    by_path = {issue["location"]["path"]: issue for issue in issues}
    assert by_path["broken.py"]["severity"] == "critical"  # GL000: the file was not checked
    assert by_path["model.py"]["severity"] == "critical"  # confirmed by the dynamic pass
    assert by_path[ODD_PATH]["severity"] == "major"
    assert by_path["model.py"]["location"]["lines"] == {"begin": 4, "end": 4}
    assert by_path["model.py"]["check_name"] == "GL001"
    assert by_path["model.py"]["description"].startswith("GL001 the result is detached\n")
    assert len({issue["fingerprint"] for issue in issues}) == 3
    assert gitlab.issue(finding(verdict=Verdict("dismissed", "ok")), "f")["severity"] == "info"
    nb = gitlab.issue(finding(path="nb.ipynb", cell=3), "f")
    assert nb["location"]["lines"] == {"begin": 1, "end": 1} and nb["description"].startswith("cell 3, line 4: GL001")


# --- junit ---------------------------------------------------------------------------------------


def test_junit_is_one_suite_per_file_and_one_failure_per_finding(here):
    findings, sources = mixed()
    findings.append(finding(line=1, column=1, end_line=1, end_column=5, code="GL005", name="inplace-on-saved"))
    findings.sort()
    root = ET.fromstring(render(junit.write, findings, sources).encode("ascii"))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "4", "0")
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {"broken.py", "model.py", ODD_PATH}
    assert (suites["model.py"].get("tests"), suites["model.py"].get("failures")) == ("2", "2")
    cases = suites["model.py"].findall("testcase")
    assert [case.get("name") for case in cases] == ["GL005 inplace-on-saved (1:1)", "GL001 detached-result (4:12)"]
    assert cases[1].get("classname") == "model" and cases[1].get("line") == "4"
    failure = cases[1].find("failure")
    assert failure.get("type") == "GL001" and failure.get("message") == "the result is detached"
    assert failure.text.startswith("model.py:4:12: GL001 the result is detached\n")
    [odd_case] = suites[ODD_PATH].findall("testcase")
    assert odd_case.get("classname") == "dir with space.mödel #1"


def test_junit_replaces_what_xml_cannot_hold_and_names_a_notebook_cell():
    text = render(junit.write, [finding(message="bad\x00byte\x1b[31m", path="nb.ipynb", cell=2)], {})
    root = ET.fromstring(text.encode("ascii"))
    [failure] = root.iter("failure")
    assert failure.get("message") == "bad\ufffdbyte\ufffd[31m"
    [case] = root.iter("testcase")
    assert case.get("cell") == "2" and case.get("name") == "GL001 detached-result (cell 2, 4:12)"
    assert failure.text.startswith("nb.ipynb:cell 2:4:12: GL001 bad")


# --- through the command line ------------------------------------------------------------------


@pytest.mark.parametrize("name", REVIEW_FORMATS)
def test_stdout_is_only_the_document_with_statistics_and_summary_on_stderr(name, here, capsys):
    (here / "a.py").write_text("def f(:\n", encoding="utf-8")
    (here / "b.py").write_text("x = 1\n", encoding="utf-8")
    code = cli.main(["check", "--output-format", name, "--statistics", "."])
    out, err = capsys.readouterr()
    assert code == 1
    if name == "junit":
        ET.fromstring(out.encode("ascii"))
    else:
        document = json.loads(out)
        if name == "sarif":
            validate_sarif(document)
    assert "GL000  syntax-error" in err and "Found 1 finding" in err
    assert "GL000  syntax-error" not in out and "Found" not in out


def test_an_unreadable_path_still_leaves_a_valid_document_on_stdout(here, capsys):
    (here / "a.py").write_text("def f(:\n", encoding="utf-8")
    code = cli.main(["check", "--output-format", "sarif", "--exit-zero", "a.py", "missing.py"])
    out, err = capsys.readouterr()
    assert code == 2 and "gradlint: error:" in err and "missing.py" in err
    log = json.loads(out)
    validate_sarif(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["GL000"]


def test_errors_of_the_run_are_not_a_clean_report():
    """A file that could not be read must not show as green in a CI system's viewer."""
    errors = ["error: secret.py: cannot read: Permission denied"]
    log = json.loads(render(sarif.write, [], {}, errors))
    validate_sarif(log)
    run = log["runs"][0]
    assert run["invocations"] == [{"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": errors[0]}}]}]
    assert json.loads(render(sarif.write, [], {}))["runs"][0]["invocations"][0]["executionSuccessful"]
    root = ET.fromstring(render(junit.write, [finding()], {"model.py": "x\n" * 9}, errors))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "1")
    [error] = root.iter("error")
    assert error.get("message") == errors[0]
    assert not [case for case in root.iter("testcase") if case.get("name") == "No findings"]
