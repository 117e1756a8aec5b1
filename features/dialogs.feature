Feature: JavaScript dialogs
  alert, confirm and prompt are answered by a dialog handler registered
  before the click (page.on('dialog')).

  Background:
    Given I open the dialogs page

  Scenario: An alert
    Given I will accept the next dialog
    When I press the "Show alert" button
    Then a "alert" dialog said "Hello from the demo app"
    And the dialog result reads "Alert closed"

  Scenario Outline: A confirm that I <answer>
    Given I will <answer> the next dialog
    When I press the "Show confirm" button
    Then a "confirm" dialog said "Delete everything?"
    And the dialog result reads "<result>"

    Examples:
      | answer  | result    |
      | accept  | Confirmed |
      | dismiss | Cancelled |

  Scenario: A prompt
    Given I will answer "Ada" to the next prompt
    When I press the "Show prompt" button
    Then a "prompt" dialog said "What is your name?"
    And the dialog result reads "Hello, Ada!"
