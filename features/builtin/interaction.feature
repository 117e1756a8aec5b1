@builtin
Feature: Built-in steps: interaction
  Clicking, typing, choosing, dragging, scrolling and uploading. Targets are
  page-object names (pages/*.yaml|toml|json, or definePage in TypeScript)
  or Playwright selectors.

  Background:
    Given I open "/elements.html"

  Scenario: Clicks of every kind
    When I click "Click me"
    And I click "elements > Click me"
    Then I expect the text of "Clicks" to equal "Clicked 2 times"
    When I double click "#double"
    Then I expect the text of "#click-log" to equal "Double-clicked"
    When I right click "#context"
    Then I expect the text of "#click-log" to equal "Context menu opened"
    When I click "#modifiers" while holding "Shift"
    Then I expect the text of "#click-log" to equal "Clicked with Shift"
    When I click "#modifiers" while holding "Alt+Shift"
    Then I expect the text of "#click-log" to equal "Clicked with Alt+Shift"
    When I force click "#covered"
    Then I expect the text of "#click-log" to equal "Clicked through the overlay"

  Scenario: Hover, focus and blur
    When I hover "#hover-me"
    Then I expect the text of "#hover-state" to equal "hovered"
    When I focus "#focus-me"
    Then I expect "#focus-me" to be focused
    And I expect the text of "#focus-state" to equal "focused"
    When I blur "#focus-me"
    Then I expect "#focus-me" not to be focused
    And I expect the text of "#focus-state" to equal "blurred"

  Scenario: Drag and drop, scrolling, events
    When I drag "#card" to "#done-zone"
    Then I expect the text of "#drop-state" to equal "The card is in Done"
    And I expect "#footer" not to be in the viewport
    When I scroll to "#footer"
    Then I expect "#footer" to be in the viewport
    When I scroll to the top of the page
    Then I expect the result of "window.scrollY" to equal 0
    When I scroll down 300 pixels
    Then I expect the result of "window.scrollY" to equal 300
    When I scroll up 100 pixels
    Then I expect the result of "window.scrollY" to equal 200
    When I scroll to the bottom of the page
    Then I expect "#footer" to be in the viewport
    When I dispatch the "ping" event on "#custom"
    Then I expect the text of "#custom" to equal "Pinged"

  Scenario: The first, the last and the nth of several elements
    Then I expect the text of the first "#items li" to equal "Buy milk"
    And I expect the text of the 2nd "#items li" to equal "Walk the dog"
    And I expect the text of the last "#items li" to equal "Write tests"
    When I click the 3rd "button"
    Then I expect "#details" to be visible

  Scenario: Filling a form
    Given I open "/forms.html"
    When I fill "Name" with "Ada"
    And I clear "Name"
    Then I expect "Name" to be empty
    When I type "Ada Lovelace" into "Name"
    And I fill "#password" with "s3cret"
    And I fill "Notes" with:
      """
      first line
      second line
      """
    And I select "Blue" in "Colour"
    Then I expect the value of "Colour" to equal "b"
    And I expect the selected option of "Colour" to equal "Blue"
    When I select "g" in "Colour"
    Then I expect the selected option of "Colour" to equal "Green"
    When I select the option with value "r" in "Colour"
    Then I expect the selected option of "Colour" not to equal "Green"
    When I select the option with label "Blue" in "Colour"
    And I select the options in "Toppings":
      | Cheese |
      | olives |
    And I check "Terms"
    And I uncheck "Newsletter"
    And I check "#size-l"
    Then I expect "Terms" to be checked
    And I expect "Newsletter" not to be checked
    When I click "Send the order"
    Then I expect the text of "Summary" to equal "name=Ada Lovelace; colour=b; toppings=cheese,olives; terms=yes; newsletter=no; size=l; notes=2 lines"

  Scenario: Filling several fields at once
    Given I open "/forms.html"
    When I fill the fields:
      | Name       | Grace |
      | Colour     | Red   |
      | Terms      | yes   |
      | Newsletter | no    |
      | #size-s    | true  |
    And I click "Send the order"
    Then I expect the text of "Summary" to contain "name=Grace; colour=r;"
    And I expect the text of "Summary" to contain "terms=yes; newsletter=no; size=s"

  Scenario: Uploading files (paths relative to this feature file)
    Given I open "/forms.html"
    When I upload "fixtures/avatar.txt" to "#avatar"
    And I upload the files to "#attachments":
      | fixtures/todos.json |
      | fixtures/notes.txt  |
    Then I expect the text of "#files" to equal "Files: avatar.txt, todos.json, notes.txt"
