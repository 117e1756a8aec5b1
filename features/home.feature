@smoke
Feature: Home page
  The home page links to every page of the demo app.

  Scenario: Every page is linked from the home page
    Given I open the home page
    Then the page title is "Demo app"
    And I see these links:
      | Login      | /login        |
      | Todo list  | /todo.html    |
      | Data table | /table.html   |
      | Dialogs    | /dialogs.html |
      | Popup      | /popup.html   |
      | Slow page  | /slow.html    |
