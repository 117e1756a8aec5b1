Feature: Todo list
  The counter shows how many todos are left. Todos live in the browser's
  localStorage, so every scenario starts with an empty list.

  Background:
    Given I open the todo list

  @smoke
  Scenario: Adding todos
    When I add the todos:
      | todo         |
      | Buy milk     |
      | Walk the dog |
      | Write tests  |
    Then the list shows:
      | Buy milk     |
      | Walk the dog |
      | Write tests  |
    And the counter reads "3 items left"

  Scenario: An empty list
    Then the list is empty
    And the counter reads "0 items left"

  Scenario: Todos survive a reload
    When I add the todos:
      | todo     |
      | Buy milk |
    And I reload the page
    Then the list shows:
      | Buy milk |

  Rule: Completed todos are not left to do

    Background:
      Given I have added the todos:
        | todo         |
        | Buy milk     |
        | Walk the dog |

    Scenario: Completing a todo
      When I complete "Buy milk"
      Then "Buy milk" is completed
      And the counter reads "1 item left"

    Scenario: Deleting a todo
      When I delete "Walk the dog"
      Then the list shows:
        | Buy milk |
      And the counter reads "1 item left"

    Scenario: Clearing the completed todos
      When I complete "Walk the dog"
      And I clear the completed todos
      Then the list shows:
        | Buy milk |
      And the counter reads "1 item left"
