@builtin
Feature: Built-in steps: waits and within

  Background:
    Given I open "/elements.html"

  Scenario: Waiting for what the page shows
    When I click "#show-later"
    And I wait for "#later" to be attached
    And I wait for "#later" to be visible
    Then I expect the text of "#later" to equal "Here I am"
    When I click "#remove-banner"
    And I wait for "#banner" to be hidden
    And I wait for "#banner" to be detached
    When I click "#slow-change"
    And I wait for the text "Working"
    And I wait for the text "Working" to disappear
    Then I expect the text of "#slow-status" to equal "Finished slowly"
    When I wait for the page to load
    And I wait for the network to be idle
    And I wait 100 milliseconds
    And I wait 0.1 seconds

  Scenario: Giving an assertion N seconds
    When I click "#slow-change"
    Then within 3 seconds, I expect the text of "#slow-status" to equal "Finished slowly"
    And within 1 second, I expect "#slow-status" not to be hidden
