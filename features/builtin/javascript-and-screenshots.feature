@builtin
Feature: Built-in steps: JavaScript and screenshots

  Background:
    Given I open "/elements.html"

  Scenario: Evaluating JavaScript in the page
    When I evaluate "document.title = 'Changed'"
    Then I expect the title to equal "Changed"
    When I remember "script" as "who"
    And I evaluate:
      """
      document.getElementById('custom').textContent = 'Set by $who'
      """
    Then I expect the text of "#custom" to equal "Set by script"
    When I remember the result of "document.querySelectorAll('#items li').length" as "count"
    Then I expect "$count" to equal 3
    And I expect the result of "1 + 1" to equal 2
    And I expect the result of "document.title" not to equal "Elements"

  Scenario: Screenshots attached to the report
    When I take a screenshot
    And I take a screenshot named "elements"
    And I take a full page screenshot
    And I take a screenshot of "#items"
