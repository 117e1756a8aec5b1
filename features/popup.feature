Feature: Popups
  A popup window is caught with page.waitForEvent('popup') while clicking.

  Background:
    Given I open the popup page

  Scenario: A popup reports back to the page that opened it
    When I open the popup
    Then the popup shows the heading "Hello from the popup"
    When I press "Send and close" in the popup
    Then the popup is closed
    And the popup status reads "Popup says: done"

  Scenario: A link that opens a new tab
    When I follow the link "Open in new tab"
    Then the popup shows the heading "Hello from the popup"
    And the popup status reads "Popup not opened"
