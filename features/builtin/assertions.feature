@builtin
Feature: Built-in steps: assertions
  Every assertion is web-first (it retries until it holds, 5 s by default)
  and has its "not" form: states take "to"/"not to", properties take a
  {validation} (to equal, to contain, to match, to start with, to end with,
  to be greater than, to be less than, to be at least, to be at most, to
  have length, each with "not").

  Background:
    Given I open "/elements.html"

  Scenario: States
    Then I expect "#click-me" to be visible
    And I expect "#secret" not to be visible
    And I expect "#secret" to be hidden
    And I expect "#click-me" not to be hidden
    And I expect "#save" to be disabled
    And I expect "#save" not to be enabled
    When I check "#enable-save"
    Then I expect "#save" to be enabled
    And I expect "#save" not to be disabled
    And I expect "#enable-save" to be checked
    And I expect "#focus-me" to be editable
    And I expect "#code" not to be editable
    And I expect "#empty" to be empty
    And I expect "#greeting" not to be empty
    And I expect "#secret" to exist
    And I expect "#nothing-here" not to exist
    And I expect "#click-me" to be in the viewport
    When I click "#toggle-details"
    Then I expect "#details" to be visible

  Scenario: Texts and values
    Then I expect the text of "h1" to equal "Elements"
    And I expect the text of "#greeting" to contain "world"
    And I expect the text of "#greeting" not to contain "moon"
    And I expect the text of "#greeting" to match "^Hello, \w+!$"
    And I expect the text of "#greeting" to start with "Hello"
    And I expect the text of "#greeting" to end with "!"
    And I expect the text of "#greeting" to have length 13
    And I expect the text of "#greeting" not to equal "Hello"
    And I expect the value of "#code" to equal "ABC-123"
    And I expect the value of "#code" not to start with "XYZ"
    And I expect the HTML of "#greeting" to contain "<strong>world</strong>"
    And I expect the HTML of "#greeting" not to contain "<em>"
    And I expect the page to contain the text "Hover me"
    And I expect the page not to contain the text "Secret"

  Scenario: Attributes, classes, CSS and properties
    Then I expect the attribute "aria-expanded" of "#toggle-details" to equal "false"
    And I expect the attribute "aria-controls" of "#toggle-details" not to equal "other"
    And I expect "#save" to have the attribute "disabled"
    And I expect "#click-me" not to have the attribute "disabled"
    And I expect the CSS property "color" of "#styled" to equal "rgb(200, 0, 0)"
    And I expect the CSS property "display" of "#secret" not to equal "block"
    And I expect "#styled" to have the class "error"
    And I expect "#styled" not to have the class "ok"
    And I expect the property "validity.valid" of "#email" to equal false
    And I expect the property "dataset.id" of the first "#items li" to equal "1"
    And I expect the property "value" of "#code" not to equal "XYZ"

  Scenario: Counts and lists
    Then I expect the count of "#items li" to equal 3
    And I expect the count of "#items li" not to equal 4
    And I expect the count of "#items li" to be greater than 2
    And I expect the count of "#items li" to be at least 3
    And I expect the count of "#items li" to be at most 3
    And I expect the count of ".nothing" to be less than 1
    And I expect the texts of "#items li" to contain "Walk the dog"
    And I expect the texts of "#items li" not to contain "Feed the cat"
    And I expect the texts of "#items li" to have length 3
    And I expect the texts of "#items li" to equal '["Buy milk", "Walk the dog", "Write tests"]'
    And I expect every text of "#items li" to match "^[A-Z][a-z]+ "
    And I expect every text of "#items li" not to contain "cat"
    And I expect any text of "#items li" to start with "Walk"
    And I expect any text of "#items li" not to end with "milk"
    And I expect the texts of "#items li" to be:
      | Buy milk     |
      | Walk the dog |
      | Write tests  |
    And I expect the texts of "#items li" not to be:
      | Buy milk |

  Scenario: Roles and accessible names
    Then I expect the role of "#fancy" to equal "button"
    And I expect the role of "#greeting" not to equal "button"
    And I expect the accessible name of "#fancy" to equal "Close the panel"
    And I expect the accessible name of "#fancy" to contain "panel"
    And I expect the accessible name of "#fancy" not to start with "Open"
    And I expect the accessible description of "#fancy" to equal "Closes the panel without saving"
    And I expect the accessible description of "#fancy" not to contain "delete"
