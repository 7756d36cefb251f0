"""The web console (server/http/console) in a real browser against a real
dpq-server: Debian's chromium, headless, driven by python3-selenium through
chromedriver.

The caller starts dpq-server with its HTTP listener, registers the dataset
"hospital", creates the buyer "alice" with epsilon 5 on it and, for the
stored-XSS case, a dataset whose description is markup, and passes, in the
environment:
  DPQ_TEST_HTTP_URL         the plaintext HTTP listener, http://127.0.0.1:PORT
  DPQ_TEST_ADMIN_TOKEN      the admin token
  DPQ_TEST_BUYER_TOKEN      alice's token
  DPQ_TEST_SCREENSHOT_DIR   where the PNGs go (buyer.png, buyer-phone.png and
                            admin.png; also whole-page phone views)
  DPQ_TEST_XSS_DATASET      optional: the id of the dataset whose description
                            is '<img src=x onerror="window.__xss=1">'
  DPQ_TEST_NEW_BUYER        optional: the name of the buyer the admin case
                            creates and revokes (default "bob")

Cases: a buyer previews, confirms and receives a measure, and the budget
drops by exactly the charge; a purchase whose answer is lost is retried
with the same request id and charged once; the admin grants budget, creates and revokes a
buyer (whose token then gets 401 from the API), pages and filters the
ledger and the audit log; the browser logs no CSP violation and no script
error; a stored description made of markup is shown as text. Every wait is
an explicit WebDriverWait on a condition.
"""

import base64
import json
import os
import shutil
import tempfile
import unittest
import urllib.error
import urllib.request
import uuid
from decimal import Decimal

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

URL = os.environ["DPQ_TEST_HTTP_URL"].rstrip("/")
ADMIN_TOKEN = os.environ["DPQ_TEST_ADMIN_TOKEN"]
BUYER_TOKEN = os.environ["DPQ_TEST_BUYER_TOKEN"]
SCREENSHOT_DIR = os.environ.get("DPQ_TEST_SCREENSHOT_DIR", "")
XSS_DATASET = os.environ.get("DPQ_TEST_XSS_DATASET", "")
XSS_DESCRIPTION = '<img src=x onerror="window.__xss=1">'
NEW_BUYER = os.environ.get("DPQ_TEST_NEW_BUYER", "bob")
DATASET = "hospital"
WAIT = 20
UNITS = Decimal(10) ** 12

# Runs before any script of every page (CDP scripts are not subject to the
# page's CSP): records CSP violations and uncaught errors, which the
# browser log alone reports less precisely.
RECORDER = """
window.__dpqTest = {csp: [], errors: []};
document.addEventListener('securitypolicyviolation', (e) => {
  window.__dpqTest.csp.push(
    e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber);
});
window.addEventListener('error', (e) => {
  window.__dpqTest.errors.push(String(e.message) + ' ' + e.filename + ':' + e.lineno);
});
window.addEventListener('unhandledrejection', (e) => {
  window.__dpqTest.errors.push(
    'unhandled rejection: ' + String(e.reason && (e.reason.stack || e.reason)));
});
// A lost answer: once dropResponseOf is set, the next call whose URL
// contains it reaches the server but the page sees a network failure, as
// when a connection drops after the server committed the charge.
const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const drop = window.__dpqTest.dropResponseOf;
  if (drop && String(input).includes(drop)) {
    window.__dpqTest.dropResponseOf = '';
    throw new TypeError('Failed to fetch (answer dropped by the test)');
  }
  return response;
};
"""


def api(path, token, body=None):
    """(HTTP status, parsed JSON) of one call of the JSON API."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data,
                                     method="GET" if body is None else "POST")
    request.add_header("Authorization", "Bearer " + token)
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, {"raw": text.decode(errors="replace")}


def epsilon(text):
    """An epsilon as the console shows it ("ε 4", "1,000.5") as a Decimal."""
    return Decimal(text.replace("ε", "").replace(",", "").strip())


def alice_budget_units(field):
    status, answer = api("/v1/admin/ledger?buyerId=alice&datasetId=%s&limit=1" % DATASET,
                         ADMIN_TOKEN)
    assert status == 200, answer
    for budget in answer.get("budgets", []):
        if budget["buyerId"] == "alice" and budget["datasetId"] == DATASET:
            return int(budget[field])
    return 0


# API answers that are errors on purpose, which Chrome logs as failed loads
# (SEVERE, source "network"): the documented role probe (a buyer token gets
# 403 from GET /v1/admin/buyers) and what a case provokes (it adds them).
EXPECTED_REFUSALS = {("/v1/admin/buyers", 403)}


def is_expected_log_entry(entry):
    """Browser-log entries that are no fault of the console: the favicon the
    browser asks for by itself, and EXPECTED_REFUSALS."""
    message = entry.get("message", "")
    if "favicon" in message and "404" in message:
        return True
    return entry.get("source") == "network" and any(
        (URL + path + " - ") in message and ("status of %d " % code) in message
        for path, code in EXPECTED_REFUSALS)


class ConsoleTest(unittest.TestCase):
    log_entries = []

    @classmethod
    def setUpClass(cls):
        cls.profile = tempfile.mkdtemp(prefix="dpq-console-test-")
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-quic", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                     "--user-data-dir=" + cls.profile]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        cls.driver.set_page_load_timeout(30)
        cls.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.profile, ignore_errors=True)

    def tearDown(self):
        # The log is drained by every read: keep what each case left for
        # the log case.
        ConsoleTest.log_entries.extend(self.driver.get_log("browser"))
        # A failed case leaves a picture of the page it failed on.
        result = getattr(getattr(self, "_outcome", None), "result", None)
        if result is not None and any(test is self for test, _ in result.failures + result.errors):
            self.screenshot("failed-%s.png" % self._testMethodName)

    # ---- helpers ------------------------------------------------------------

    def wait(self, condition, message=""):
        waiter = WebDriverWait(self.driver, WAIT,
                               ignored_exceptions=[StaleElementReferenceException])
        return waiter.until(lambda d: condition(), message)

    def js(self, script):
        return self.driver.execute_script(script)

    def el(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visible(self, css):
        def shown():
            found = self.els(css)
            return found and found[0].is_displayed() and found[0]
        return self.wait(shown, "not visible: " + css)

    def wait_text(self, css, predicate, what):
        def check():
            found = self.els(css)
            return found and found[0].is_displayed() and predicate(found[0].text) and found[0]
        try:
            return self.wait(check, what)
        except TimeoutException:
            found = self.els(css)
            raise AssertionError("%s: %s shows %r" % (what, css, found[0].text if found else None))

    def open_console(self):
        """A fresh page with an empty sessionStorage."""
        self.driver.get(URL + "/")
        self.driver.execute_script("sessionStorage.clear();")
        self.driver.get(URL + "/")
        self.visible("#signin-form #token")

    def sign_in(self, token, view):
        self.open_console()
        field = self.el("#token")
        field.send_keys(token)
        field.send_keys(Keys.ENTER)  # Enter submits the form: keyboard use
        self.visible(view)
        self.assertTrue(self.el("#signin").get_attribute("hidden") is not None)

    def sign_out(self, view):
        self.el("#signout").click()
        self.visible("#signin-form #token")
        self.assertFalse(self.el(view).is_displayed())
        self.assertEqual(self.driver.execute_script("return sessionStorage.length;"), 0)
        self.assertEqual(self.els(view + " table"), [], "the signed-out view keeps its tables")

    def assert_page_clean(self):
        recorded = self.driver.execute_script("return window.__dpqTest;")
        self.assertIsNotNone(recorded, "the recorder did not run")
        self.assertEqual(recorded["csp"], [], "CSP violations")
        self.assertEqual(recorded["errors"], [], "script errors")

    def assert_token_only_in_session_storage(self, token):
        self.assertEqual(self.js("return sessionStorage.getItem('dpq.console.token');"), token)
        self.assertEqual(self.driver.execute_script("return localStorage.length;"), 0)
        self.assertEqual(self.driver.execute_script("return document.cookie;"), "")
        self.assertNotIn(token, self.driver.current_url)
        self.assertNotIn(token, self.driver.execute_script("return document.body.textContent;"))

    def screenshot(self, name):
        """The whole page, not only the viewport."""
        if not SCREENSHOT_DIR:
            return
        os.makedirs(SCREENSHOT_DIR, exist_ok=True)
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot",
                                           {"format": "png", "captureBeyondViewport": True})
        with open(os.path.join(SCREENSHOT_DIR, name), "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def viewport_screenshot(self, name):
        if SCREENSHOT_DIR:
            os.makedirs(SCREENSHOT_DIR, exist_ok=True)
            self.driver.save_screenshot(os.path.join(SCREENSHOT_DIR, name))

    def at_phone_width(self, action):
        """Runs action with a 375 x 800 mobile viewport."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 375, "height": 800, "deviceScaleFactor": 1,
                                     "mobile": True})
        try:
            self.wait(lambda: self.js("return window.innerWidth;") == 375, "phone width")
            action()
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def table_rows(self, table_css):
        return self.els(table_css + " tbody tr:not(.empty-row)")

    # ---- (a) a buyer buys a score ---------------------------------------------------

    def test_1_buyer_previews_confirms_and_sees_answer_and_budget(self):
        status, described = api("/v1/datasets/" + DATASET, BUYER_TOKEN)
        self.assertEqual(status, 200, described)
        multiplier = Decimal(described["dataset"].get("chargeMultiplier") or 1)
        before_units = alice_budget_units("remainingUnits")

        self.sign_in(BUYER_TOKEN, "#buyer-view")
        self.assert_token_only_in_session_storage(BUYER_TOKEN)
        self.visible("#datasets-table button[aria-label='Open dataset %s']" % DATASET).click()
        remaining = self.wait_text("#budget-remaining", lambda t: t.strip() != "", "the budget")
        before = epsilon(remaining.text)
        self.assertEqual(before, Decimal(before_units) / UNITS)
        self.wait_text("#details", lambda t: "privacy unit" in t.lower(), "the describe details")
        self.wait_text("#who", lambda t: "alice" in t, "the buyer's name")

        Select(self.el("#buy-measure")).select_by_value("MEASURE_MI")
        amount = self.el("#buy-epsilon")
        amount.clear()
        amount.send_keys("1")
        self.el("#preview-button").click()
        self.visible("#preview")
        charge = epsilon(self.wait_text("#preview-charge", lambda t: "ε" in t,
                                        "the previewed charge").text)
        self.assertEqual(charge, multiplier * 1)
        self.assertEqual(self.el("#preview-fits").text, "yes")
        self.assertEqual(Decimal(self.el("#preview-multiplier").text), multiplier)
        self.assertEqual(epsilon(self.el("#preview-remaining").text), before)
        self.assertEqual(epsilon(self.el("#preview-after").text), before - charge)
        confirm = self.el("#confirm-purchase")
        self.assertEqual(confirm.text, "Confirm purchase of ε = %s" % charge)
        # Nothing is bought before the confirmation.
        self.assertEqual(alice_budget_units("remainingUnits"), before_units)
        confirm.click()

        answer = self.wait_text("#answer", lambda t: "I_MI is about" in t, "the answer")
        text = answer.text
        self.assertIn("conflicting pairs", text)
        self.assertIn("With 95% probability the true value", text)
        self.assertIn("Charged ε %s" % charge, text)
        request_id = self.el("#answer-request-id").text
        self.assertTrue(uuid.UUID(request_id))

        after = before - charge
        self.wait_text("#budget-remaining", lambda t: epsilon(t) == after, "the remaining budget")
        self.assertEqual(alice_budget_units("remainingUnits"), before_units - int(charge * UNITS))
        receipt_row = "#receipts-table tr[data-request-id='%s']" % request_id
        receipt = self.wait(lambda: self.els(receipt_row), "the new receipt")[0]
        self.assertIn("committed", receipt.text)
        self.assertIn("I_MI", receipt.text)
        self.wait(lambda: self.els("#spend-chart svg circle"), "a point on the spend chart")
        self.assertIn("ε %s remain" % after, self.el("#spend-summary").text)
        self.screenshot("buyer.png")

        def phone():
            # The chart is drawn again at the new width; wide tables scroll
            # inside their wrappers, the page itself does not.
            self.wait(lambda: int(self.el("#spend-chart svg").get_attribute("width")) <= 375,
                      "the chart redrawn at phone width")
            self.wait(lambda: self.driver.execute_script(
                "return document.documentElement.scrollWidth;") <= 375, "no horizontal page scroll")
            self.driver.execute_script("window.scrollTo(0, 0);")
            self.viewport_screenshot("buyer-phone.png")
            self.screenshot("buyer-phone-full.png")
        self.at_phone_width(phone)

        remaining_units = self.check_retry_after_a_lost_answer(before_units - int(charge * UNITS))

        # Over the budget: the preview says so and the purchase cannot be
        # confirmed. Out of range: the server's refusal is shown as an alert.
        self.preview("1000")
        self.wait_text("#preview-fits", lambda t: t == "no", "an over-budget preview")
        self.assertFalse(self.el("#confirm-purchase").is_enabled())
        EXPECTED_REFUSALS.add(("/v1/costs:preview", 400))
        self.preview("2000000")
        status, refusal = api("/v1/costs:preview", BUYER_TOKEN, {"measureInconsistency": {
            "datasetId": DATASET, "measure": "MEASURE_MI", "epsilon": 2000000}})
        self.assertEqual((status, refusal["error"]["status"]), (400, "INVALID_ARGUMENT"), refusal)
        alert = self.wait_text("#buy-error", lambda t: refusal["error"]["message"] in t,
                               "the server's refusal")
        self.assertEqual(alert.get_attribute("role"), "alert")
        self.assertFalse(self.el("#preview").is_displayed())
        self.assertEqual(alice_budget_units("remainingUnits"), remaining_units)

        self.assert_page_clean()
        self.sign_out("#buyer-view")

    def check_retry_after_a_lost_answer(self, remaining_units):
        """The purchase's answer is lost after the server charged it: the
        console offers a retry with the same request id, which the server
        answers with the recorded answer and no second charge. Returns the
        remaining units after the one charge."""
        Select(self.el("#buy-measure")).select_by_value("MEASURE_P")
        self.preview("0.5")
        charge = epsilon(self.wait_text("#preview-charge", lambda t: "ε" in t,
                                        "the second preview").text)
        self.driver.execute_script("window.__dpqTest.dropResponseOf = ':measure';")
        self.el("#confirm-purchase").click()
        self.wait_text("#buy-error", lambda t: "could not be reached" in t, "the lost answer")
        retry = self.wait_text("#confirm-purchase", lambda t: t.startswith("Retry the same"),
                               "the retry button")
        charged_once = remaining_units - int(charge * UNITS)
        self.assertEqual(alice_budget_units("remainingUnits"), charged_once)
        retry.click()
        answer = self.wait_text("#answer", lambda t: "I_P is about" in t, "the replayed answer")
        self.assertIn("recorded answer of an earlier identical request", answer.text)
        request_id = self.el("#answer-request-id").text
        receipt_row = "#receipts-table tr[data-request-id='%s']" % request_id
        self.wait(lambda: self.els(receipt_row), "its receipt")
        self.wait_text("#budget-remaining", lambda t: epsilon(t) == Decimal(charged_once) / UNITS,
                       "the budget charged once")
        self.assertEqual(alice_budget_units("remainingUnits"), charged_once)
        self.assertEqual(len(self.els(receipt_row)), 1)
        return charged_once

    def preview(self, amount):
        field = self.el("#buy-epsilon")
        field.clear()
        field.send_keys(amount)
        field.send_keys(Keys.ENTER)

    # ---- (b) the admin view -------------------------------------------------------------

    def test_2_admin_grants_creates_revokes_and_pages_the_ledger(self):
        granted_before = alice_budget_units("grantedUnits")
        self.sign_in(ADMIN_TOKEN, "#admin-view")
        self.wait(lambda: self.els("#buyers-table tr[data-buyer-id='alice']"), "alice listed")
        self.wait(lambda: self.els("#admin-datasets-table tr[data-dataset-id='%s']" % DATASET),
                  "the datasets")
        self.wait(lambda: self.els("#dataset-chart svg rect.bar"), "the bar chart")

        # Grant alice 2 more on hospital.
        granted = Decimal(granted_before) / UNITS + 2
        self.grant("alice", "2")
        self.wait_text("#grant-status", lambda t: ("granted ε %s" % granted) in t, "the grant")
        row = "#budgets-table tr[data-buyer-id='alice'][data-dataset-id='%s'] td.granted" % DATASET
        self.wait_text(row, lambda t: epsilon(t) == granted, "alice's granted budget")

        # Create the new buyer; its token is shown once.
        name = self.el("#new-buyer-name")
        name.send_keys(NEW_BUYER)
        name.send_keys(Keys.ENTER)
        token = self.wait_text("#new-token", lambda t: t.startswith("dpq_"), "the new token").text
        self.wait(lambda: self.els("#buyers-table tr[data-buyer-id='%s']" % NEW_BUYER),
                  "the new buyer")
        self.assertEqual(api("/v1/datasets", token)[0], 200)

        # Give the new buyer two ledger entries, so that the ledger has
        # several buyers to filter and more than one page.
        self.grant(NEW_BUYER, "1")
        self.wait_text("#grant-status", lambda t: t.startswith("Done. " + NEW_BUYER),
                       "the second grant")
        spent_cell = "#admin-datasets-table tr[data-dataset-id='%s'] td.spent-all" % DATASET
        spent_before = epsilon(self.el(spent_cell).text)
        for _ in range(2):
            status, answer = api("/v1/datasets/%s:measure" % DATASET, token,
                                 {"measure": "MEASURE_P", "epsilon": 0.01,
                                  "requestId": str(uuid.uuid4())})
            self.assertEqual(status, 200, answer)
        # Spent elsewhere: Refresh shows it (the charge of 0.01 is k_Q x 0.01).
        self.el("#admin-refresh").click()
        self.wait_text(spent_cell, lambda t: epsilon(t) > spent_before,
                       "the new spend after Refresh")

        # Revoke it, confirming in the page; then its token is refused.
        self.el("#buyers-table button[data-revoke='%s']" % NEW_BUYER).click()
        self.visible("#revoke-confirm")
        self.assertIn(NEW_BUYER, self.el("#revoke-question").text)
        self.el("#revoke-yes").click()
        self.wait_text("#buyers-table tr[data-buyer-id='%s']" % NEW_BUYER, lambda t: "revoked" in t,
                       "the revoked buyer")
        self.assertEqual(self.els("#buyers-table button[data-revoke='%s']" % NEW_BUYER), [])
        status, answer = api("/v1/datasets", token)
        self.assertEqual(status, 401, answer)

        self.check_ledger_paging()
        self.check_ledger_filter()
        self.check_audit_filter()
        self.screenshot("admin.png")

        def phone():
            self.wait(lambda: int(self.el("#dataset-chart svg").get_attribute("width")) <= 375,
                      "the bar chart redrawn at phone width")
            self.wait(lambda: self.driver.execute_script(
                "return document.documentElement.scrollWidth;") <= 375, "no horizontal page scroll")
            self.screenshot("admin-phone.png")
        self.at_phone_width(phone)
        self.assert_page_clean()
        self.sign_out("#admin-view")
        self.assertEqual(self.el("#new-token").get_attribute("textContent"), "",
                         "the token outlived the sign-out")

    def grant(self, buyer, amount):
        def offered():
            return buyer in [o.get_attribute("value")
                             for o in Select(self.el("#grant-buyer")).options]
        self.wait(offered, "the buyer in the grant form")
        Select(self.el("#grant-buyer")).select_by_value(buyer)
        Select(self.el("#grant-dataset")).select_by_value(DATASET)
        field = self.el("#grant-epsilon")
        field.clear()
        field.send_keys(amount)
        field.send_keys(Keys.ENTER)

    def ledger_keys(self):
        return [r.get_attribute("data-buyer-id") + "#" + r.get_attribute("data-entry-id")
                for r in self.table_rows("#ledger-table")]

    def show_ledger(self, buyer, limit):
        Select(self.el("#ledger-buyer")).select_by_value(buyer)
        field = self.el("#ledger-limit")
        field.clear()
        field.send_keys(str(limit))
        old = self.el("#ledger-table")
        self.el("#ledger-apply").click()
        self.wait(lambda: not self.is_attached(old), "the ledger reloaded")

    def is_attached(self, element):
        try:
            element.tag_name
            return True
        except StaleElementReferenceException:
            return False

    def check_ledger_paging(self):
        self.show_ledger("", 1)
        self.wait(lambda: len(self.ledger_keys()) == 1, "one entry per page")
        first = self.ledger_keys()
        self.assertTrue(self.el("#ledger-prev").get_attribute("disabled") is not None)
        self.el("#ledger-next").click()
        self.wait(lambda: self.ledger_keys() and self.ledger_keys() != first, "the second page")
        second = self.ledger_keys()
        self.assertIn("Page 2", self.el("#ledger-page").text)
        self.el("#ledger-prev").click()
        self.wait(lambda: self.ledger_keys() == first, "back on the first page")
        self.assertIn("Page 1", self.el("#ledger-page").text)
        self.el("#ledger-next").click()
        self.wait(lambda: self.ledger_keys() == second, "the second page again")

    def check_ledger_filter(self):
        self.show_ledger("alice", 20)
        self.wait(lambda: self.els("#ledger-table"), "the filtered ledger")
        buyers = {r.get_attribute("data-buyer-id") for r in self.table_rows("#ledger-table")}
        self.assertTrue(buyers <= {"alice"}, buyers)
        budget_buyers = {r.get_attribute("data-buyer-id")
                         for r in self.table_rows("#budgets-table")}
        self.assertEqual(budget_buyers, {"alice"})
        self.show_ledger(NEW_BUYER, 20)
        self.wait(lambda: len(self.table_rows("#ledger-table")) == 2, "the new buyer's two entries")
        buyers = {r.get_attribute("data-buyer-id") for r in self.table_rows("#ledger-table")}
        self.assertEqual(buyers, {NEW_BUYER})

    def check_audit_filter(self):
        Select(self.el("#audit-action")).select_by_value("GrantBudget")
        old = self.el("#audit-table")
        self.el("#audit-apply").click()
        self.wait(lambda: not self.is_attached(old) and self.els("#audit-table"),
                  "the filtered audit log")
        actions = [r.get_attribute("data-action") for r in self.table_rows("#audit-table")]
        self.assertGreaterEqual(len(actions), 2)
        self.assertEqual(set(actions), {"GrantBudget"})
        self.assertIn("buyer=" + NEW_BUYER, self.el("#audit-table tbody").text)

    # ---- (c) stored XSS ---------------------------------------------------------------------

    @unittest.skipUnless(XSS_DATASET, "DPQ_TEST_XSS_DATASET is not set")
    def test_3_markup_in_a_description_is_shown_as_text(self):
        self.sign_in(BUYER_TOKEN, "#buyer-view")
        row = "#datasets-table tr[data-dataset-id='%s']" % XSS_DATASET
        self.wait(lambda: self.els(row), "the dataset")
        cells = [c.text for c in self.els(row + " td")]
        self.assertIn(XSS_DESCRIPTION, cells)
        self.el(row + " button").click()
        self.wait_text("#details-description", lambda t: t == XSS_DESCRIPTION,
                       "the description as text")
        self.assertEqual(self.driver.execute_script("return typeof window.__xss;"), "undefined")
        self.assertEqual(self.driver.find_elements(By.TAG_NAME, "img"), [])
        self.assertEqual(self.js("return document.querySelectorAll('[onerror]').length;"), 0)
        self.assert_page_clean()
        self.sign_out("#buyer-view")

    # ---- accessibility basics ------------------------------------------------------------------

    def assert_labelled_and_captioned(self):
        problems = self.driver.execute_script("""
          const problems = [];
          for (const c of document.querySelectorAll('input, select, textarea')) {
            if (!c.labels || c.labels.length === 0) problems.push('no label: #' + c.id);
          }
          for (const t of document.querySelectorAll('table')) {
            if (!t.caption || !t.caption.textContent.trim()) problems.push('no caption: #' + t.id);
            for (const th of t.querySelectorAll('th')) {
              if (!th.getAttribute('scope')) problems.push('th without scope in #' + t.id);
            }
          }
          for (const b of document.querySelectorAll('button')) {
            if (!b.textContent.trim() && !b.getAttribute('aria-label')) {
              problems.push('unnamed button');
            }
          }
          if (document.documentElement.lang !== 'en') problems.push('lang');
          if (document.querySelectorAll('[style]').length) problems.push('inline style attributes');
          return problems;""")
        self.assertEqual(problems, [])

    def test_4_controls_are_labelled_tables_captioned_and_skip_link_first(self):
        self.open_console()
        self.el("body").send_keys(Keys.TAB)
        self.assertEqual(self.js("return document.activeElement.className;"), "skip-link")
        self.sign_in(BUYER_TOKEN, "#buyer-view")
        self.visible("#datasets-table button[aria-label='Open dataset %s']" % DATASET).click()
        self.wait(lambda: self.els("#receipts-table") and self.els("#budget-remaining"),
                  "the dataset")
        self.assert_labelled_and_captioned()
        self.sign_out("#buyer-view")
        self.sign_in(ADMIN_TOKEN, "#admin-view")
        tables = ("#audit-table", "#ledger-table", "#buyers-table")
        self.wait(lambda: all(self.els(t) for t in tables), "the admin tables")
        self.assert_labelled_and_captioned()
        self.assert_page_clean()
        self.sign_out("#admin-view")

    # ---- (d) the browser log ----------------------------------------------------------------

    def test_9_browser_log_has_no_csp_violation_or_error(self):
        # Both views once more, so that this case also stands alone.
        self.sign_in(BUYER_TOKEN, "#buyer-view")
        self.visible("#datasets-table button[aria-label='Open dataset %s']" % DATASET).click()
        self.wait(lambda: self.els("#receipts-table"), "the receipts")
        self.assert_page_clean()
        self.sign_out("#buyer-view")
        self.sign_in(ADMIN_TOKEN, "#admin-view")
        self.wait(lambda: self.els("#audit-table") and self.els("#ledger-table"),
                  "the admin tables")
        self.assert_page_clean()
        self.sign_out("#admin-view")
        entries = ConsoleTest.log_entries + self.driver.get_log("browser")
        bad = [e for e in entries if e.get("level") == "SEVERE" and not is_expected_log_entry(e)]
        csp = [e for e in entries if "Content Security Policy" in e.get("message", "")]
        self.assertEqual(csp, [], "CSP messages in the browser log")
        self.assertEqual(bad, [], "SEVERE entries in the browser log")


if __name__ == "__main__":
    unittest.main()
